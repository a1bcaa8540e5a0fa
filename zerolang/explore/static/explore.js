// zero explore: the neighbourhood graph on the concept page (plain JS, no library, no network but
// this server). Drag to pan, wheel to zoom, click a concept to expand it (its neighbours join the
// drawing), double-click to open its page. Labels are drawn with fillText: text, never markup.
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

  function draw() {
    context.setTransform(1, 0, 0, 1, 0, 0);
    context.clearRect(0, 0, canvas.width, canvas.height);
    context.setTransform(view.scale, 0, 0, view.scale, view.x, view.y);
    context.strokeStyle = "#9aa5b1";
    context.lineWidth = 1 / view.scale;
    context.beginPath();
    for (const edge of edges.values()) {
      const a = nodes.get(edge.source), b = nodes.get(edge.target);
      context.moveTo(a.x, a.y); context.lineTo(b.x, b.y);
    }
    context.stroke();
    const many = nodes.size > 120 && view.scale < 1.5;
    // Each fact's direction (an arrowhead short of its object) and, while the drawing is not
    // crowded, its predicate at the middle of the line.
    context.fillStyle = "#9aa5b1";
    for (const edge of edges.values()) {
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
    context.font = 10 / view.scale + "px sans-serif";
    if (!many) {
      context.fillStyle = "#6b7280";
      for (const edge of edges.values()) {
        const a = nodes.get(edge.source), b = nodes.get(edge.target);
        context.fillText(edge.predicate || "", (a.x + b.x) / 2, (a.y + b.y) / 2);
      }
    }
    context.font = 12 / view.scale + "px sans-serif";
    for (const node of nodes.values()) {
      context.fillStyle = node.depth === 0 ? "#c2410c" : node.expanded ? "#1d4ed8" : "#0f766e";
      context.beginPath();
      context.arc(node.x, node.y, (node.depth === 0 ? 8 : 5) / view.scale, 0, Math.PI * 2);
      context.fill();
      if (!many || node.depth === 0 || node.expanded) {
        context.fillStyle = "#111827";
        context.fillText(node.label, node.x + 8 / view.scale, node.y + 4 / view.scale);
      }
    }
    canvas.dataset.scale = view.scale.toFixed(3);
    canvas.dataset.panX = view.x.toFixed(1);
    canvas.dataset.panY = view.y.toFixed(1);
  }

  function frame() {
    if (heat > 0.02) {
      for (let i = 0; i < 3; i++) step();
      draw();
    } else if (canvas.dataset.settled !== "yes") {
      canvas.dataset.settled = "yes";
      fit();
    }
    window.requestAnimationFrame(frame);
  }

  function fit() {
    const list = Array.from(nodes.values());
    if (!list.length) return;
    const xs = list.map(function (n) { return n.x; }), ys = list.map(function (n) { return n.y; });
    const left = Math.min.apply(null, xs), right = Math.max.apply(null, xs);
    const top = Math.min.apply(null, ys), bottom = Math.max.apply(null, ys);
    const scale = Math.min(canvas.width / (right - left + 160), canvas.height / (bottom - top + 80), 2.5);
    view.scale = scale;
    view.x = canvas.width / 2 - (left + right) / 2 * scale;
    view.y = canvas.height / 2 - (top + bottom) / 2 * scale;
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
    expanded: function (id) { const node = nodes.get(id); return Boolean(node && node.expanded); },
  };

  for (const character of canvas.dataset.seed) seedNumber = (seedNumber * 31 + character.charCodeAt(0)) % 2147483648;
  load(canvas.dataset.seed, 2, null).then(function () { window.requestAnimationFrame(frame); });
})();
