"""Experiential memory: conversations captured as three layers per turn, recalled through a graph.

An agent's transcripts (pi/OpenClaw, Claude Code, OpenAI chat) become turns; each
turn becomes experience records in three layers (INPUT, CONTEMPLATION, OUTPUT)
with affect scores, the concepts they mention and edges to their sibling layers
and neighbouring turns. Recall enters by full-text search and expands through
that graph; `budget` renders what it found under an exact token budget.

Storage is reached only through `store.ExperienceStore`.
"""
