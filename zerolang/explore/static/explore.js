// zero explore: the neighbourhood graph on the concept page (plain JS, no library, no network but
// this server). Drag to pan, wheel to zoom, click a concept to expand it (its neighbours join the
// drawing), double-click to open its page. Labels are drawn with fillText: text, never markup.
//
// The layout is computed before the first drawing, which is fitted to the canvas (every concept
// and its label inside it); after an expansion the drawing is fitted again unless you moved it.
// Labels are placed one by one, the concept's own first: each takes the first spot beside its dot
// (or along its line, for a fact's predicate) that overlaps no label placed before and stays on the
// canvas; a label with no such spot is left out until you zoom in (so are the predicates of a
// crowded drawing). Each label sits on a white halo, above the lines. A past fact (retracted,
// superseded, or whose validity ended) is drawn dashed and grey, a current one solid.
"use strict";

(function () {
  const canvas = document.getElementById("graph");
  if (!canvas) return;
  const context = canvas.getContext("2d");
  const status = document.querySelector(".graph-status");
  const nodes = new Map(); // id -> {id, label, x, y, vx, vy, depth, expanded}
  const edges = new Map(); // fact id -> {source, target, predicate}
  const view = { scale: 1, x: canvas.width / 2, y: canvas.height / 2 };
  let heat = 0;
  let seedNumber = 1;
  let moved = false; // the reader panned or zoomed since the last fit: do not refit under them
  let placed = []; // the labels drawn last: {text, kind, x, y, width, height} in canvas pixels
  const PAST = new Set(["retracted", "superseded", "ended"]);
  const MARGIN = 10; // canvas pixels kept free around the fitted drawing

  function random() { // deterministic: the same store draws the same picture
    seedNumber = (seedNumber * 1103515245 + 12345) % 2147483648;
    return seedNumber / 2147483648;
  }

  function merge(data, around) {
    let added = 0;
    for (const node of data.nodes) {
      if (nodes.has(node.id)) continue;
      const angle = random() * Math.PI * 2;
      const radius = (around ? 40 : 90 * node.depth) + random() * 30;
      const centre = around || { x: 0, y: 0 };
      nodes.set(node.id, {
        id: node.id, label: node.label, depth: node.depth, expanded: false,
        x: centre.x + Math.cos(angle) * radius, y: centre.y + Math.sin(angle) * radius, vx: 0, vy: 0,
      });
      added += 1;
    }
    for (const edge of data.edges) {
      if (nodes.has(edge.source) && nodes.has(edge.target)) edges.set(edge.id, edge);
    }
    heat = 1;
    report(data.truncated);
    return added;
  }

  function report(truncated) {
    canvas.dataset.nodes = String(nodes.size);
    canvas.dataset.edges = String(edges.size);
    if (status) {
      status.textContent = nodes.size + " concepts, " + edges.size + " facts" + (truncated ? " (cut at the limit)" : "");
    }
  }

  function load(id, depth, around) {
    return fetch("/api/graph?c=" + encodeURIComponent(id) + "&depth=" + depth, { credentials: "same-origin" })
      .then(function (response) { return response.json(); })
      .then(function (data) {
        if (data.error) { if (status) status.textContent = data.error; return 0; }
        const node = nodes.get(id);
        if (node) node.expanded = true;
        return merge(data, around);
      });
  }

  function step() { // one tick of a small force layout: springs on facts, repulsion between concepts
    const list = Array.from(nodes.values());
    for (let i = 0; i < list.length; i++) {
      const a = list[i];
      for (let j = i + 1; j < list.length; j++) {
        const b = list[j];
        let dx = a.x - b.x, dy = a.y - b.y;
        let distance = dx * dx + dy * dy;
        if (distance < 0.01) { dx = random() - 0.5; dy = random() - 0.5; distance = 0.5; }
        if (distance > 90000) continue;
        const push = 900 / distance;
        a.vx += dx * push; a.vy += dy * push; b.vx -= dx * push; b.vy -= dy * push;
      }
    }
    for (const edge of edges.values()) {
      const a = nodes.get(edge.source), b = nodes.get(edge.target);
      const dx = b.x - a.x, dy = b.y - a.y;
      const distance = Math.sqrt(dx * dx + dy * dy) || 1;
      const pull = (distance - 70) * 0.02 / distance;
      a.vx += dx * pull; a.vy += dy * pull; b.vx -= dx * pull; b.vy -= dy * pull;
    }
    for (const node of list) {
      node.vx -= node.x * 0.002; node.vy -= node.y * 0.002; // a weak pull to the centre
      node.x += Math.max(-20, Math.min(20, node.vx * heat));
      node.y += Math.max(-20, Math.min(20, node.vy * heat));
      node.vx *= 0.5; node.vy *= 0.5;
    }
    heat *= 0.97;
  }

  function screen(node) {
    return { x: node.x * view.scale + view.x, y: node.y * view.scale + view.y };
  }

  function past(edge) { return PAST.has(edge.state); }

  function strokeEdges(list, colour, dash) {
    context.strokeStyle = colour;
    context.setLineDash(dash.map(function (length) { return length / view.scale; }));
    context.beginPath();
    for (const edge of list) {
      const a = nodes.get(edge.source), b = nodes.get(edge.target);
      context.moveTo(a.x, a.y); context.lineTo(b.x, b.y);
    }
    context.stroke();
    context.setLineDash([]);
    context.fillStyle = colour;
    for (const edge of list) { // the fact's direction: an arrowhead short of its object
      const a = nodes.get(edge.source), b = nodes.get(edge.target);
      const dx = b.x - a.x, dy = b.y - a.y, length = Math.hypot(dx, dy);
      if (length < 1) continue;
      const ux = dx / length, uy = dy / length, size = 7 / view.scale, back = 7 / view.scale;
      const tipX = b.x - ux * back, tipY = b.y - uy * back;
      context.beginPath();
      context.moveTo(tipX, tipY);
      context.lineTo(tipX - ux * size - uy * size * 0.5, tipY - uy * size + ux * size * 0.5);
      context.lineTo(tipX - ux * size + uy * size * 0.5, tipY - uy * size - ux * size * 0.5);
      context.fill();
    }
  }

  function overlaps(box, boxes) {
    for (const other of boxes) {
      if (box.x < other.x + other.width && other.x < box.x + box.width &&
          box.y < other.y + other.height && other.y < box.y + box.height) return true;
    }
    return false;
  }

  function inside(box) {
    return box.x >= 0 && box.y >= 0 && box.x + box.width <= canvas.width && box.y + box.height <= canvas.height;
  }

  // The first of `spots` (top-left corners, canvas pixels) where a label of this size fits: on the
  // canvas, over no label placed before and no concept's dot. Null when none does.
  function place(text, kind, size, spots, dots) {
    context.font = size + "px sans-serif";
    const width = context.measureText(text).width, height = size + 2;
    for (const spot of spots) {
      const box = { text: text, kind: kind, x: spot.x, y: spot.y, width: width, height: height };
      if (inside(box) && !overlaps(box, placed) && !overlaps(box, dots)) { placed.push(box); return box; }
    }
    return null;
  }

  function nodeLabelSpots(point, width, size, radius) {
    const gap = radius + 3, half = (size + 2) / 2;
    return [
      { x: point.x + gap, y: point.y - half }, { x: point.x - gap - width, y: point.y - half },
      { x: point.x - width / 2, y: point.y - gap - size - 2 }, { x: point.x - width / 2, y: point.y + gap },
      { x: point.x + gap, y: point.y - gap - size - 2 }, { x: point.x + gap, y: point.y + gap },
      { x: point.x - gap - width, y: point.y - gap - size - 2 }, { x: point.x - gap - width, y: point.y + gap },
    ];
  }

  function edgeLabelSpots(a, b, width, size) {
    const spots = [];
    for (const along of [0.5, 0.4, 0.6, 0.3, 0.7]) {
      const x = a.x + (b.x - a.x) * along, y = a.y + (b.y - a.y) * along;
      spots.push({ x: x - width / 2, y: y - size - 3 }, { x: x - width / 2, y: y + 2 });
    }
    return spots;
  }

  function write(text, box, colour) { // a label on a white halo, so the lines under it do not cross it
    context.lineWidth = 3;
    context.strokeStyle = "rgba(255, 255, 255, 0.85)";
    context.strokeText(text, box.x, box.y + 1);
    context.fillStyle = colour;
    context.fillText(text, box.x, box.y + 1);
  }

  function radiusOf(node) { return node.depth === 0 ? 8 : 5; }

  function labelled(node) { // the order labels are placed in: this concept, expanded ones, nearest first
    return (node.depth === 0 ? 0 : node.expanded ? 1 : 2 + node.depth);
  }

  function draw() {
    context.setTransform(1, 0, 0, 1, 0, 0);
    context.clearRect(0, 0, canvas.width, canvas.height);
    context.setTransform(view.scale, 0, 0, view.scale, view.x, view.y);
    context.lineWidth = 1 / view.scale;
    const all = Array.from(edges.values());
    strokeEdges(all.filter(past), "#c4c9d0", [5, 4]);
    strokeEdges(all.filter(function (edge) { return !past(edge); }), "#6b7280", []);
    for (const node of nodes.values()) {
      context.fillStyle = node.depth === 0 ? "#c2410c" : node.expanded ? "#1d4ed8" : "#0f766e";
      context.beginPath();
      context.arc(node.x, node.y, radiusOf(node) / view.scale, 0, Math.PI * 2);
      context.fill();
    }
    // The labels, in canvas pixels: concepts' first (in order of importance), then predicates.
    context.setTransform(1, 0, 0, 1, 0, 0);
    placed = [];
    const dots = Array.from(nodes.values()).map(function (node) {
      const point = screen(node), r = radiusOf(node);
      return { x: point.x - r, y: point.y - r, width: 2 * r, height: 2 * r };
    });
    const order = Array.from(nodes.values()).sort(function (a, b) { return labelled(a) - labelled(b); });
    context.textBaseline = "top";
    for (const node of order) {
      const point = screen(node), size = 12, text = node.label || node.id.slice(0, 12);
      context.font = size + "px sans-serif";
      const width = context.measureText(text).width;
      const box = place(text, "concept", size, nodeLabelSpots(point, width, size, radiusOf(node)), dots);
      if (box) write(text, box, "#111827");
    }
    // Predicates only while the drawing is not crowded (zoom in to see them).
    const crowded = all.length > 80 && view.scale < 1.5;
    for (const edge of crowded ? [] : all) {
      const a = screen(nodes.get(edge.source)), b = screen(nodes.get(edge.target));
      const size = 10, text = edge.predicate || "";
      if (!text || Math.hypot(b.x - a.x, b.y - a.y) < 30) continue;
      context.font = size + "px sans-serif";
      const width = context.measureText(text).width;
      const box = place(text, "fact", size, edgeLabelSpots(a, b, width, size), dots);
      if (box) write(text, box, past(edge) ? "#9ca3af" : "#4b5563");
    }
    context.textBaseline = "alphabetic";
    canvas.dataset.scale = view.scale.toFixed(3);
    canvas.dataset.panX = view.x.toFixed(1);
    canvas.dataset.panY = view.y.toFixed(1);
    canvas.dataset.labels = String(placed.length);
  }

  function frame() {
    if (heat > 0.02) {
      for (let i = 0; i < 3; i++) step();
      if (!moved) fit(); else draw();
      canvas.dataset.settled = "no";
    } else if (canvas.dataset.settled !== "yes") {
      canvas.dataset.settled = "yes";
      if (!moved) fit(); else draw();
    }
    window.requestAnimationFrame(frame);
  }

  function settle() { // the layout run to rest before anything is drawn
    for (let i = 0; i < 400 && heat > 0.02; i++) step();
    heat = 0;
  }

  // The largest scale (at most 2.5) at which every concept, its dot and its label to the right
  // fit the canvas with MARGIN to spare, and the pan that centres them.
  function fit() {
    moved = false;
    const list = Array.from(nodes.values());
    if (!list.length) { draw(); return; }
    context.font = "12px sans-serif";
    const widths = list.map(function (node) {
      return context.measureText(node.label || node.id.slice(0, 12)).width + radiusOf(node) + 3;
    });
    function extent(scale) {
      let left = Infinity, right = -Infinity, top = Infinity, bottom = -Infinity;
      list.forEach(function (node, i) {
        const r = radiusOf(node);
        left = Math.min(left, node.x * scale - r); right = Math.max(right, node.x * scale + widths[i]);
        top = Math.min(top, node.y * scale - 9); bottom = Math.max(bottom, node.y * scale + 9);
      });
      return { left: left, right: right, top: top, bottom: bottom };
    }
    function fits(scale) {
      const box = extent(scale);
      return box.right - box.left <= canvas.width - 2 * MARGIN && box.bottom - box.top <= canvas.height - 2 * MARGIN;
    }
    let low = 0.01, high = 2.5;
    if (fits(high)) low = high;
    else for (let i = 0; i < 40; i++) { const middle = (low + high) / 2; if (fits(middle)) low = middle; else high = middle; }
    const box = extent(low);
    view.scale = low;
    view.x = (canvas.width - (box.right - box.left)) / 2 - box.left;
    view.y = (canvas.height - (box.bottom - box.top)) / 2 - box.top;
    draw();
  }

  function at(event) { // the canvas point under the pointer, in canvas pixels
    const box = canvas.getBoundingClientRect();
    return {
      x: (event.clientX - box.left) * canvas.width / box.width,
      y: (event.clientY - box.top) * canvas.height / box.height,
    };
  }

  function nodeAt(point) {
    let best = null, bestDistance = 12 * 12;
    for (const node of nodes.values()) {
      const where = screen(node);
      const distance = (where.x - point.x) ** 2 + (where.y - point.y) ** 2;
      if (distance < bestDistance) { best = node; bestDistance = distance; }
    }
    return best;
  }

  let drag = null;
  canvas.addEventListener("mousedown", function (event) {
    const point = at(event);
    drag = { x: point.x, y: point.y, viewX: view.x, viewY: view.y, moved: false };
  });
  window.addEventListener("mousemove", function (event) {
    if (!drag) return;
    const point = at(event);
    if (Math.abs(point.x - drag.x) + Math.abs(point.y - drag.y) > 3) drag.moved = true;
    view.x = drag.viewX + point.x - drag.x;
    view.y = drag.viewY + point.y - drag.y;
    if (drag.moved) moved = true;
    draw();
  });
  window.addEventListener("mouseup", function (event) {
    if (!drag) return;
    const moved = drag.moved;
    drag = null;
    if (moved) return;
    const node = nodeAt(at(event));
    if (node && !node.expanded) load(node.id, 1, { x: node.x, y: node.y });
  });
  canvas.addEventListener("dblclick", function (event) {
    const node = nodeAt(at(event));
    if (node) window.location.href = "/concept?c=" + encodeURIComponent(node.id);
  });
  canvas.addEventListener("wheel", function (event) {
    event.preventDefault();
    const point = at(event);
    const factor = Math.exp(-event.deltaY * 0.0015);
    const scale = Math.min(8, Math.max(0.1, view.scale * factor));
    view.x = point.x - (point.x - view.x) * scale / view.scale;
    view.y = point.y - (point.y - view.y) * scale / view.scale;
    view.scale = scale;
    moved = true;
    draw();
  }, { passive: false });
  const fitButton = document.querySelector("[data-graph=fit]");
  if (fitButton) fitButton.addEventListener("click", fit);

  // What the browser tests read: where a concept is drawn, in page coordinates.
  window.zeroGraph = {
    where: function (id) {
      const node = nodes.get(id);
      if (!node) return null;
      const point = screen(node), box = canvas.getBoundingClientRect();
      return { x: box.left + point.x * box.width / canvas.width, y: box.top + point.y * box.height / canvas.height };
    },
    ids: function () { return Array.from(nodes.keys()); },
    // the labels drawn, each {text, kind, x, y, width, height} in page coordinates
    labels: function () {
      const box = canvas.getBoundingClientRect(), kx = box.width / canvas.width, ky = box.height / canvas.height;
      return placed.map(function (label) {
        return {
          text: label.text, kind: label.kind, x: box.left + label.x * kx, y: box.top + label.y * ky,
          width: label.width * kx, height: label.height * ky,
        };
      });
    },
    state: function (id) { const edge = edges.get(id); return edge ? edge.state || "current" : null; },
    expanded: function (id) { const node = nodes.get(id); return Boolean(node && node.expanded); },
  };

  for (const character of canvas.dataset.seed) seedNumber = (seedNumber * 31 + character.charCodeAt(0)) % 2147483648;
  load(canvas.dataset.seed, 2, null).then(function () {
    settle();
    canvas.dataset.settled = "yes";
    fit();
    window.requestAnimationFrame(frame);
  });
})();
