# lib/memory.awk: how a memory file reads, for every reader of memory.
# agenthooks-owned:7d2f9c1e template=hooks/lib/memory.awk@9
# The readers: the block (lib/block.awk), the archive check (lib/archive.sh) and agenthooks
# itself (agenthooks/memory/parse.py), tested on one table of inputs.
# A line is blank, in an HTML comment, a title ("# "), a section heading ("## ", "### ", ...),
# or text. A comment runs from a line starting "<!--" to the first line holding "-->", and never
# past a blank line. A BOM and CRLF line ends read as nothing. Runs under LC_ALL=C (bytes).
# Run alone as awk -v list=items -f memory.awk FILE: the items of each section of FILE (the
# snapshot), one a line: "SECTION<TAB>LINE" (the archive check: an empty snapshot prints none).

# classify(s): "blank", "comment", "section" (HEADING = its title), "title", or "text".
function classify(s) {
  if (s ~ /^[ \t\r]*$/) { incomment = 0; return "blank" }
  if (incomment) { if (index(s, "-->")) incomment = 0; return "comment" }
  if (s ~ /^[ \t]*<!--/) { if (!index(s, "-->")) incomment = 1; return "comment" }
  if (s ~ /^##+[ \t]/) { HEADING = s; sub(/^#+[ \t]+/, "", HEADING); return "section" }
  if (s ~ /^#[ \t]/) return "title"
  return "text"
}
# section(t): the section a heading's title names: goal, progress, decisions, done, todo,
# failed (tried and failed), or other; English and Chinese titles, a colon after them or not.
function section(t) {
  t = tolower(t)
  sub(/[ \t\r]+$/, "", t)
  sub(/(:|\357\274\232)$/, "", t)
  if (t ~ /^(goals?|objective|目标|任务目标)$/) return "goal"
  if (t ~ /^(in[ -]?progress|progress|doing|进行中)$/) return "progress"
  if (t ~ /^((key )?decisions|关键决策)$/) return "decisions"
  if (t ~ /^(done|completed|已完成)$/) return "done"
  if (t ~ /^(todo|to[ -]do|next|待办)$/) return "todo"
  if (t ~ /^(tried and failed|failed approaches|rejected( approaches)?|dead[ -]?ends?)$/ ||
      t ~ /^(已放弃|放弃的方案|死胡同)$/)
    return "failed"
  return "other"
}
# Each file starts outside any comment and section; a BOM is dropped (tested first: rewriting
# $0 makes awk split it into fields again).
FNR == 1 {
  incomment = 0; sec = ""
  if (substr($0, 1, 3) == "\357\273\277") $0 = substr($0, 4)
}
list == "items" {
  k = classify($0)
  if (k == "section") sec = section(HEADING)
  else if (k == "title") sec = ""
  else if (k == "text" && sec != "") print sec "\t" $0
}
