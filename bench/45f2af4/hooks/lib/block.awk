# lib/block.awk: the memory block, built in one pass over the memory files.
# agenthooks-owned:7d2f9c1e template=hooks/lib/block.awk@9
# Run by lib/block.sh after lib/memory.awk (how a line reads) and lib/clean.awk (what the model
# may see of it).
# Runs under LC_ALL=C: every string is bytes. Files, each after its kind: kind=user_rules
# (~/.agent/memory/tattoo.md), kind=tattoo, kind=snapshot, kind=notes, and after a compaction
# the session's working set: kind=files (log/state/SESSION.files), kind=request (.request).
# Prints the figures line, then the block; with AGENTHOOKS_SCOPE=summary, the instructions for
# the host's summary instead (summary()).
# Estimate: one token per CJK-width character (3- and 4-byte UTF-8), one per 4 others.
function tok(s,   t, w, c) {
  if (s !~ /[\200-\377]/) return int((length(s) + 4) / 4)
  t = s; w = gsub(/[\340-\364]/, "", t)
  t = s; c = gsub(/[\200-\277]/, "", t)
  return w + int((length(s) - c - w + 4) / 4)
}
# Characters as hosts count them (UTF-16 units), plus the newline.
function nch(s,   t, c, q) {
  if (s !~ /[\200-\377]/) return length(s) + 1
  t = s; c = gsub(/[\200-\277]/, "", t)
  t = s; q = gsub(/[\360-\364]/, "", t)
  return length(s) - c + q + 1
}
function add(s) { L[++n] = s; T += tok(s); C += nch(s) }
function over() { return T > budget || C > 9500 }
function drop(s) { T -= tok(s); C -= nch(s) }
# The i-th shown line of a section: Tried and failed shows its latest lines, so its cuts
# take the oldest shown one; the other sections show (and cut) from their top.
function sline(key, i) { return key == "failed" ? S[key, SK[key] - keep[key] + i] : S[key, i] }
function build(   i, k, key, any, c) {
  n = 0; T = 0; C = 0
  add(BEGIN_DELIM)
  if (!tight) add("Project memory (.agent/memory/, loaded by agenthooks): current, and it wins over " \
      "anything earlier in this conversation.")
  if (ENVIRON["AGENTHOOKS_NOTICE"] != "" && tight < 3) add(ENVIRON["AGENTHOOKS_NOTICE"])
  if (ncut > 1 && tight < 3)
    add(sprintf("[agenthooks: over %d KB or binary, read in part only: %s; read and shorten it]", CUT[1], cuts))
  if (tight < 3) add("## " "Hard rules (must obey)")
  rcut = ucut + pcut + uextra + pextra
  if (rcut > 0 && tight < 3)
    add(sprintf("[agenthooks WARNING: %d of %d rules are left out, over the budget or the host\047s " \
      "10,000-character cap: READ .agent/memory/tattoo.md NOW, and shorten it]", rcut, nut + uextra + ntat + pextra))
  else if (rcut > 0)
    add(sprintf("[agenthooks WARNING: %d of %d rules left out for the budget: READ " \
      ".agent/memory/tattoo.md]", rcut, nut + uextra + ntat + pextra))
  if (nut > 0 && tight < 3) {
    add("### " "User rules (~/.agent/memory/tattoo.md)")
    for (i = 1; i <= nut - ucut; i++) add(UT[i])
    add("### " "Project rules (.agent/memory/tattoo.md; these win over user rules on conflict)")
  }
  if (ntat == 0) add("(no project rules yet: add one-line rules to .agent/memory/tattoo.md)")
  for (i = 1; i <= ntat - pcut; i++) add(TT[i])
  # Small budgets: rules before fixed text (tight 1: no intro, headings, footer; 2: no cut
  # markers; 3: no notice, no word of a file read in part, no rules headings, the short
  # warning). Nothing else is left by then.
  if (!tight) add("## " "Current task snapshot (summary)")
  any = 0; gone = 0
  for (k = 1; k <= 4; k++) {
    if (SN[key = order[k]] == 0) continue
    any = 1
    # A section cut to nothing loses its heading too: one marker says what is missing.
    if (keep[key] == 0) { gone += SN[key]; continue }
    add("### " (key in HEAD ? HEAD[key] : key))
    for (i = 1; i <= keep[key]; i++) add(sline(key, i))
    if (keep[key] < SN[key] && key == "failed" && keep[key] == SK[key])
      add(sprintf("[... %d older entries left out: read .agent/memory/snapshot.md]", SN[key] - keep[key]))
    else if (keep[key] < SN[key])
      add(sprintf("[... %d lines left out for the budget: read .agent/memory/snapshot.md]", SN[key] - keep[key]))
  }
  if (tight > 1) gone = 0
  if (gone > 0) add(sprintf("[... %d lines left out for the budget: read .agent/memory/snapshot.md]", gone))
  if (!any && !tight) add("(no goal, in-progress or key-decision items yet: see .agent/memory/snapshot.md)")
  # The working set (after a compaction): what this session edited and was asked last.
  if (wkeep > 0 && !tight) add("## " "Before the compaction (kept by agenthooks)")
  for (i = 1; i <= wkeep; i++) add(WL[i])
  if (wkeep < nwl && tight < 2) add(sprintf("[... %d lines left out for the budget: read %s]", nwl - wkeep, WFILE))
  if (nnotes > 0 && nn > 0) {
    if (cut_n < shown) {
      add("## " sprintf("Scratch notes (may be stale; latest %d of %d)", shown - cut_n, nn))
      for (i = 1 + cut_n; i <= shown; i++) add(R[i])
    }
    c = tight > 1 ? 0 : cut_n
    if (c > 0) add(sprintf("[... %d older notes left out for the budget: read .agent/memory/notes.md]", c))
  }
  if (!tight) add("---")
  if (!tight) add("Full files: .agent/memory/. Update snapshot.md when the task changes phase (a " \
      "progress board, not an edit log). Task done: bash .agent/hooks/pre_task.sh " \
      "--archive")
  add(END_DELIM)
}
# One more cut, in order: oldest note, oldest dead end, key decisions, the working set (the
# request, then the files, then the marker that says so), goal, in progress; rules only when
# nothing else is left, user rules before project rules, and never silently (build() puts a
# warning first). Returns 0 when nothing is left to cut.
function cut1(   k, key) {
  if (cut_n < shown) { drop(R[1 + cut_n]); cut_n++; return 1 }
  for (k = 1; k <= 4; k++) {
    if (k == 3 && wkeep > 0) { drop(WL[wkeep]); wkeep--; return 1 }
    if (k == 3 && nwl > 0) { nwl = 0; return 1 } # its marker too, before the goal goes
    if (keep[key = cutk[k]] > 0) { drop(sline(key, key == "failed" ? 1 : keep[key])); keep[key]--; cut_s++; return 1 }
  }
  if (ucut < nut) { drop(UT[nut - ucut]); ucut++; return 1 }
  if (pcut < ntat) { drop(TT[ntat - pcut]); pcut++; return 1 }
  return 0
}
BEGIN {
  ncut = split(ENVIRON["AGENTHOOKS_CUT"], CUT, " ")  # KB, then the keys of files read in part
  for (i = 2; i <= ncut; i++)
    cuts = cuts (i > 2 ? ", " : "") (CUT[i] == "user_rules" ? "~/.agent/memory/tattoo" : ".agent/memory/" CUT[i]) ".md"
  clean_init()
  BEGIN_DELIM = "===== AGENT MEMORY BEGIN ====="; END_DELIM = "===== AGENT MEMORY END ====="
  budget += 0; nnotes += 0
  # A token is at least one character and at most four: no file can show more than this.
  if ((cap = 4 * budget + 400) > 10000) cap = 10000
  nut = 0; ntat = 0; nn = 0; tl = 0; sl = 0; redacted = 0
  WANT["goal"] = 1; WANT["progress"] = 1; WANT["decisions"] = 1; WANT["failed"] = 1
  FAILMAX = 3  # Tried and failed: its latest lines only (parse.FAILED_SHOWN)
  uchars = 0; pchars = 0; uextra = 0; pextra = 0
}
# A private key's body lines reach the rules below as lines clean() redacts (lib/clean.awk).
inkey || /PRIVATE KEY/ { $0 = keyline($0) }
# Lines past what the budget or the character cap could ever show are counted, not cleaned.
kind == "user_rules" || kind == "tattoo" {
  if (kind == "tattoo") tl++
  if (incomment) {
    # A rule after an unclosed "<!--" is kept until a "-->" shows it was in a comment: then the
    # rules since the opening line go again; a blank line or the file's end keeps them.
    if (index($0, "-->")) {
      incomment = 0
      if (kind == "user_rules") { nut = CK[1]; uchars = CK[2]; uextra = CK[3] }
      else { ntat = CK[1]; pchars = CK[2]; pextra = CK[3] }
      next
    }
    if ($0 ~ /^[ \t\r]*$/) { incomment = 0; next }
    if ($0 ~ /^[ \t\r]*<!--|^#[ \t]/) next
  } else if ((k = classify($0)) != "text" && k != "section") {
    # Blank, a title or a comment; a comment left open here keeps what the rules were.
    if (incomment && kind == "user_rules") { CK[1] = nut; CK[2] = uchars; CK[3] = uextra }
    else if (incomment) { CK[1] = ntat; CK[2] = pchars; CK[3] = pextra }
    next
  }
  if (kind == "user_rules") {
    if (uchars > cap) { uextra++; next }
    UT[++nut] = clean($0, "~/.agent/memory/tattoo.md")
    uchars += nch(UT[nut])
  } else {
    if (pchars > cap) { pextra++; next }
    TT[++ntat] = clean($0, ".agent/memory/tattoo.md:" FNR)
    pchars += nch(TT[ntat])
  }
  next
}
kind == "snapshot" {
  sl++
  k = classify($0)
  if (k == "section") {
    sec = section(HEADING)
    if ((sec in WANT) && !(sec in HEAD)) HEAD[sec] = clean(HEADING, "")
    next
  }
  if (k == "title") sec = ""
  if (k != "text" || !(sec in WANT)) next
  SN[sec]++
  # Tried and failed: a ring of its latest FAILMAX lines, cleaned at the end.
  if (sec == "failed") { FR[SN[sec] % FAILMAX] = $0; FL[SN[sec] % FAILMAX] = FNR; next }
  if (SC[sec] > cap) next
  S[sec, ++SK[sec]] = clean($0, ".agent/memory/snapshot.md:" FNR)
  SC[sec] += nch(S[sec, SK[sec]])
  next
}
# The working set: the paths (one a line, latest last; one that looks like a secret is left
# out), and the request as the payload had it (decoded in working()).
kind == "files" {
  if (FNR > 50 || $0 ~ /^[ \t\r]*$/) next
  r = redacted; p = clean($0, "")
  if (redacted > r) { redacted = r; next }
  WF[++nwf] = p; WFILE = FILENAME
  next
}
kind == "request" { if (FNR <= 400) { RQ = RQ $0 "\n"; RFILE = FILENAME }; next }
# notes.md: only its end is shown, so each line costs one regex (the count) and one store
# in a ring of the last 64 lines; the latest notes are picked from the ring at the end.
kind == "notes" {
  if ($0 ~ /^[ \t]*[^ \t\r#<]/) nn++
  RING[++nr % 64] = $0
  next
}
# latest(): R[1..shown] = the latest nnotes notes (text lines not starting with "#"), oldest
# first, cleaned; the ring is read forward, so that comments are found as in the other files.
function latest(   i, got, P) {
  got = 0; incomment = 0
  for (i = (nr > 64 ? nr - 63 : 1); i <= nr; i++)
    if (classify(RING[i % 64]) == "text" && RING[i % 64] !~ /^[ \t]*#/) P[++got] = i
  shown = got < nnotes ? got : nnotes
  if (nn < shown) nn = shown
  for (i = 1; i <= shown; i++) R[i] = clean(RING[P[got - shown + i] % 64], ".agent/memory/notes.md:" P[got - shown + i])
}
# working(): the working set's lines, WL[1..nwl]: the last nfiles paths, then the request
# (JSON escapes decoded, on one line, cleaned); WFILE names the list for the cut marker.
function working(   i, s, first) {
  nwl = 0
  sub(/.*\/\.agent\//, ".agent/", WFILE); sub(/.*\/\.agent\//, ".agent/", RFILE)
  if (nwf > 0 && nfiles > 0) {
    first = nwf > nfiles ? nwf - nfiles + 1 : 1
    for (s = WF[i = first]; ++i <= nwf;) s = s ", " WF[i]
    FILES = s
    WL[++nwl] = sprintf("Files you were editing, latest last: %s", s)
  }
  if ((RQ = prompt(RQ)) != "" && nfiles > 0) {
    REQUEST = clean(unjson(RQ), RFILE)
    WL[++nwl] = sprintf("The user\047s latest request: %s", REQUEST)
    if (WFILE == "") WFILE = RFILE
  }
  wkeep = nwl
}
# prompt(s): the user's prompt in payload s (a top-level "prompt"), its first 300 characters
# as JSON escapes them, to its closing quote; "" when there is none, or it is a slash command.
function prompt(s,   i, t) {
  if (!(i = index(s, "\"prompt\":"))) return ""
  t = substr(s, 1, i - 1); sub(/^[ \t\r\n]*\{/, "", t)
  if (t ~ /[{]/ || index(t, "[")) return ""
  s = substr(s, i + 9); sub(/^[ \t\r\n]*"/, "\"", s)
  if (s !~ /^"[^\/]/) return ""
  s = substr(s, 2, 300); t = s; gsub(/\\\\/, "..", t); gsub(/\\"/, "..", t)
  return (i = index(t, "\"")) > 0 ? substr(s, 1, i - 1) : s
}
# summary(): the instructions for the host's summary (AGENTHOOKS_SCOPE=summary): what it must
# keep verbatim, within the budget. Cut first: key decisions (from the bottom), In progress past
# its first three items, the files, the request; then the rules give way to one line naming
# tattoo.md, then the rest of In progress goes (from the bottom). Nothing to keep, or not even
# that much room: nothing printed.
function summary(   i) {
  kd = SK["decisions"]; kp = SK["progress"]; kf = FILES != ""; kr = REQUEST != ""; kt = ntat > 0
  sbuild()
  while (over() && n > 0) {
    if (kd > 0) kd--
    else if (kp > 3) kp--
    else if (kf) kf = 0
    else if (kr) kr = 0
    else if (kt == 1) kt = 2
    else if (kp > 0) kp--
    else n = 0
    if (n > 0) sbuild()
  }
  if (!kt && !SN["progress"] && !kd && !kf && !kr) n = 0
  if (!n) { kt = 0; kp = 0; kd = 0; kr = 0; kf = 0; T = 0 }
  printf "summary %d %d %d %d %d %d %d %d %d\n", (kt == 1) * ntat, ntat + pextra, kp, SN["progress"],
    kd, SN["decisions"], kr, kf, T
  for (i = 1; i <= n; i++) print L[i]
}
# sbuild(): the instructions as summary() chose them (kt 1: the rules, 2: where they are).
function sbuild(   i) {
  n = 0; T = 0; C = 0
  add("When you summarize this conversation, keep the following verbatim " \
      "(.agent/memory/ is the durable record; agenthooks reloads it after the " \
      "compaction):")
  if (kt == 1) add("The project\047s hard rules (must obey):")
  for (i = 1; kt == 1 && i <= ntat; i++) add(TT[i])
  if (kt == 2) add(sprintf("The project\047s %d hard rules: they are in .agent/memory/tattoo.md.", ntat + pextra))
  if (SN["progress"] > 0) add("In progress:")
  for (i = 1; i <= kp; i++) add(S["progress", i])
  if (kp < SN["progress"]) add(sprintf("(%d more in .agent/memory/snapshot.md)", SN["progress"] - kp))
  if (kd > 0) add("Key decisions:")
  for (i = 1; i <= kd; i++) add(S["decisions", i])
  if (kr) add(sprintf("The user\047s latest request: %s", REQUEST))
  if (kf) add(sprintf("The files being edited, latest last: %s", FILES))
}
END {
  order[1] = "goal"; order[2] = "progress"; order[3] = "decisions"; order[4] = "failed"
  cutk[1] = "failed"; cutk[2] = "decisions"; cutk[3] = "goal"; cutk[4] = "progress"
  working()
  if (ENVIRON["AGENTHOOKS_SCOPE"] == "summary") { summary(); exit }
  latest()
  for (i = (SN["failed"] > FAILMAX ? SN["failed"] - FAILMAX + 1 : 1); i <= SN["failed"]; i++)
    S["failed", ++SK["failed"]] = clean(FR[i % FAILMAX], ".agent/memory/snapshot.md:" FL[i % FAILMAX])
  for (k = 1; k <= 4; k++) keep[order[k]] = SK[order[k]] + 0
  cut_n = 0; ucut = 0; pcut = 0
  build()
  if (over()) {
    while (over() && cut1()) ;
    build()
    # The cut markers themselves cost a little: settle with a few more single cuts.
    for (pass = 0; pass < 1000 && over() && cut1(); pass++) build()
  }
  # Rules left out while fixed text is shown: the fixed text goes first, then the rules.
  if (over() || ucut + pcut > 0) {
    ucut = 0; pcut = 0
    for (tight = 1; tight <= 3; tight++) { build(); if (!over()) break }
    # The rules alone are over: the least tight block (the full one first) that holds its warning,
    if (tight > 3) {  # then as many rules as fit in it
      ucut = nut; pcut = ntat
      for (tight = 0; tight < 3; tight++) { build(); if (!over()) break }
      ucut = 0; pcut = 0; build()
      for (pass = 0; pass < 1000 && over() && cut1(); pass++) build()
    }
  }
  cut_s = 0
  # Dead ends past the latest FAILMAX are no budget cut: only those the budget took count.
  for (k = 1; k <= 4; k++) cut_s += (order[k] == "failed" ? SK["failed"] : SN[order[k]]) - keep[order[k]]
  tover = ucut + pcut + uextra + pextra
  lb = 0
  if (ENVIRON["AGENTHOOKS_LOG"] != "") {
    while ((getline line < ENVIRON["AGENTHOOKS_LOG"]) > 0) lb += length(line) + 1
    close(ENVIRON["AGENTHOOKS_LOG"])
  }
  # Idempotent start: when the published block is already this one, nothing is rewritten.
  same = 0
  if (ENVIRON["AGENTHOOKS_CURRENT"] != "") {
    same = 1; i = 0
    while ((getline line < ENVIRON["AGENTHOOKS_CURRENT"]) > 0)
      if (++i > n || line != L[i]) { same = 0; break }
    close(ENVIRON["AGENTHOOKS_CURRENT"])
    if (i != n) same = 0
  }
  # The figures, in the order agenthooks/statefiles.py declares them (STATS_FIELDS).
  printf "figures %d %d %d %d %d %d %d %d %d %d %d %d\n",
    tl, sl, nn, shown - cut_n, T, C, cut_n, cut_s, tover, redacted, lb, same
  for (i = 1; i <= n; i++) print L[i]
}
