# Runs under LC_ALL=C: every string is bytes. Files: K=utat user rules, K=tattoo project
# rules, K=snapshot, K=notes. Prints a stats line, then the block.
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
# Invalid UTF-8 becomes "?", so every JSON parser accepts the output.
function utf8(s,   out, r) {
  for (out = ""; s != ""; s = substr(s, r + 1))
    if (match(s, /^[\001-\177]+/) || match(s, /^([\302-\337][\200-\277]|\340[\240-\277][\200-\277]|[\341-\354\356\357][\200-\277][\200-\277]|\355[\200-\237][\200-\277]|\360[\220-\277][\200-\277][\200-\277]|[\361-\363][\200-\277][\200-\277][\200-\277]|\364[\200-\217][\200-\277][\200-\277])+/)) { out = out substr(s, 1, RLENGTH); r = RLENGTH }
    else { out = out "?"; r = 1 }
  return out
}
function secret(p) { SECRET = SECRET (SECRET == "" ? "" : "|") "(" p ")" }
function clean(s, where,   i, long, t) {
  # Only the first 600 bytes are shown: cut a huge line first, so that neither the NUL
  # loop nor the secret regex (quadratic on long runs in some awks) sees megabytes.
  long = 0
  if (length(s) > 1200) { s = substr(s, 1, 1200); long = 1 }
  if (NUL != "") while ((i = index(s, NUL)) > 0) s = substr(s, 1, i - 1) substr(s, i + 1)
  # Normalise first: no control or invisible character (redact.INVISIBLE) splits a secret.
  gsub(/\t/, "  ", s)
  gsub(/[\001-\037\177]|\302[\200-\237\255]|\342\200[\213-\217\252-\256]|\342\201[\240-\244\246-\251]|\357\273\277/, "", s)
  if (SECRET != "" && s ~ SECRET) { redacted++; return sprintf({{ msg.redacted|awkstr }}, where) }
  if (long || length(s) > 600) { s = substr(s, 1, 600); sub(/[\300-\367][\200-\277]*$/, "", s); s = s " [...]" }
  if (s ~ /[\200-\377]/) s = utf8(s)
  # Memory text must not be able to close (or reopen) the block, even with lookalikes.
  t = (s ~ /[\316\320\321\357]/) ? fold(s) : s
  if (toupper(t) ~ /AGENT[^A-Z0-9]*MEMORY[^A-Z0-9]*(BEGIN|END)/) { s = t; gsub(/[Aa][Gg][Ee][Nn][Tt][^A-Za-z0-9]*[Mm][Ee][Mm][Oo][Rr][Yy]/, "agent-memory(quoted)", s) }
  return s
}
function fold(s,   o) {  # lookalike letters (redact.LOOKALIKES) as ASCII
  for (o = ""; match(s, LKRE); s = substr(s, RSTART + RLENGTH)) o = o substr(s, 1, RSTART - 1) LK[substr(s, RSTART, RLENGTH)]
  return o s
}
# Blank lines, HTML comments (to "-->", never past a blank line) and the title line carry
# nothing the agent needs.
function skip(s) {
  if (s ~ /^[ \t\r]*$/) { incomment = 0; return 1 }
  if (incomment) { if (index(s, "-->")) incomment = 0; return 1 }
  if (s ~ /^[ \t]*<!--/) { if (!index(s, "-->")) incomment = 1; return 1 }
  return 0
}
function section(t) {
  t = tolower(t)
  sub(/[ \t\r]+$/, "", t)
  sub(/(:|\357\274\232)$/, "", t)
  if (t ~ /^(goals?|objective|目标|任务目标)$/) return "goal"
  if (t ~ /^(in[ -]?progress|progress|doing|进行中)$/) return "progress"
  if (t ~ /^((key )?decisions|关键决策)$/) return "decisions"
  if (t ~ /^(done|completed|已完成)$/) return "done"
  if (t ~ /^(todo|to[ -]do|next|待办)$/) return "todo"
  return "other"
}
function add(s) { L[++n] = s; T += tok(s); C += nch(s) }
function over() { return T > budget || C > 9500 }
function drop(s) { T -= tok(s); C -= nch(s) }
function build(   i, k, key, any) {
  n = 0; T = 0; C = 0
  add(BEGIN_DELIM)
  add({{ msg.intro|awkstr }})
  if (ENVIRON["AH_NOTICE"] != "") add(ENVIRON["AH_NOTICE"])
  if (ncut > 1) add(sprintf({{ msg.mem_cut|awkstr }}, CUT[1], cuts))
  add("## " {{ msg.rules|awkstr }})
  rcut = ucut + pcut + uextra + pextra
  if (rcut > 0) add(sprintf({{ msg.tattoo_cut|awkstr }}, rcut, nut + uextra + ntat + pextra))
  if (nut > 0) {
    add("### " {{ msg.user_rules|awkstr }})
    for (i = 1; i <= nut - ucut; i++) add(UT[i])
    add("### " {{ msg.project_rules|awkstr }})
  }
  if (ntat == 0) add({{ msg.no_rules|awkstr }})
  for (i = 1; i <= ntat - pcut; i++) add(TT[i])
  add("## " {{ msg.snapshot|awkstr }})
  any = 0; gone = 0
  for (k = 1; k <= 3; k++) {
    if (SN[key = order[k]] == 0) continue
    any = 1
    # A section cut to nothing loses its heading too: one marker says what is missing.
    if (keep[key] == 0) { gone += SN[key]; continue }
    add("### " (key in HEAD ? HEAD[key] : key))
    for (i = 1; i <= keep[key]; i++) add(S[key, i])
    if (keep[key] < SN[key]) add(sprintf({{ msg.snapshot_cut|awkstr }}, SN[key] - keep[key]))
  }
  if (gone > 0) add(sprintf({{ msg.snapshot_cut|awkstr }}, gone))
  if (!any) add({{ msg.no_snapshot|awkstr }})
  if (nnotes > 0 && nn > 0) {
    if (cut_n < shown) {
      add("## " sprintf({{ msg.notes|awkstr }}, shown - cut_n, nn))
      for (i = 1 + cut_n; i <= shown; i++) add(R[i])
    }
    if (cut_n > 0) add(sprintf({{ msg.notes_cut|awkstr }}, cut_n))
  }
  add("---")
  add({{ msg.footer|awkstr }})
  add(END_DELIM)
}
# One more cut, in order: oldest note, key decisions, goal, in progress; rules only when
# nothing else is left, user rules before project rules, and never silently (build()
# puts a warning first). Returns 0 when nothing is left to cut.
function cut1(   k, key) {
  if (cut_n < shown) { drop(R[1 + cut_n]); cut_n++; return 1 }
  for (k = 1; k <= 3; k++) if (keep[key = cutk[k]] > 0) { drop(S[key, keep[key]]); keep[key]--; cut_s++; return 1 }
  if (ucut < nut) { drop(UT[nut - ucut]); ucut++; return 1 }
  if (pcut < ntat) { drop(TT[ntat - pcut]); pcut++; return 1 }
  return 0
}
BEGIN {
  NUL = sprintf("%c", 0)
  ncut = split(ENVIRON["AH_CUT"], CUT, " ")  # KB, then the keys of files read in part
  for (i = 2; i <= ncut; i++) cuts = cuts (i > 2 ? ", " : "") (CUT[i] == "utat" ? "~/.agent/memory/tattoo" : ".agent/memory/" CUT[i]) ".md"
  n = split("{{ lookalikes }}", LKT, " ")
  for (i = 1; i <= n; i++) { k = substr(LKT[i], 1, length(LKT[i]) - 1); LK[k] = substr(LKT[i], length(LKT[i])); LKRE = LKRE (i > 1 ? "|" : "") k }
  # Secret patterns (agenthooks/redact.py), one per line: a line matching one is redacted.
{% for name, ere in secret_eres %}
  secret({{ ere|awkstr }})  # {{ name }}
{% endfor %}
  BEGIN_DELIM = "===== AGENT MEMORY BEGIN ====="; END_DELIM = "===== AGENT MEMORY END ====="
  budget += 0; nnotes += 0
  # A token is at least one character and at most four: no file can show more than this.
  if ((cap = 4 * budget + 400) > 10000) cap = 10000
  nut = 0; ntat = 0; nn = 0; tl = 0; sl = 0; redacted = 0
  WANT["goal"] = 1; WANT["progress"] = 1; WANT["decisions"] = 1
  uchars = 0; pchars = 0; uextra = 0; pextra = 0
}
FNR == 1 {
  incomment = 0; sec = ""
  # A BOM; tested first, as rewriting $0 makes awk split it into fields again.
  if (substr($0, 1, 3) == "\357\273\277") $0 = substr($0, 4)
}
# Lines past what the budget or the character cap could ever show are counted, not cleaned.
# One regex per line sends blank, comment and title lines to skip(): big files stay cheap.
K == "utat" || K == "tattoo" {
  if (K == "tattoo") tl++
  # A rule after an unclosed "<!--" is kept until a "-->" shows it was in a comment: then the
  # rules since the opening line go again; a blank line or the file's end keeps them.
  if (incomment && index($0, "-->")) {
    incomment = 0
    if (K == "utat") { nut = CK[1]; uchars = CK[2]; uextra = CK[3] } else { ntat = CK[1]; pchars = CK[2]; pextra = CK[3] }
    next
  }
  if ($0 ~ /^([ \t\r]*(<!--|$)|#[ \t])/) {
    if (incomment) { if ($0 ~ /^[ \t\r]*$/) incomment = 0; next }
    skip($0)
    if (incomment) { CK[1] = K == "utat" ? nut : ntat; CK[2] = K == "utat" ? uchars : pchars; CK[3] = K == "utat" ? uextra : pextra }
    next
  }
  if (K == "utat") {
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
K == "snapshot" {
  sl++
  if (incomment || $0 ~ /^[ \t\r]*(<!--|$)/) { skip($0); next }
  if (substr($0, 1, 1) == "#") {
    if ($0 ~ /^##+[ \t]/) {
      h = $0
      sub(/^#+[ \t]+/, "", h)
      sec = section(h)
      if ((sec in WANT) && !(sec in HEAD)) HEAD[sec] = clean(h, "")
      next
    }
    if ($0 ~ /^#[ \t]/) { sec = ""; next }
  }
  if (!(sec in WANT)) next
  SN[sec]++
  if (SC[sec] > cap) next
  S[sec, ++SK[sec]] = clean($0, ".agent/memory/snapshot.md:" FNR)
  SC[sec] += nch(S[sec, SK[sec]])
  next
}
# notes.md: only its end is shown, so each line costs one regex (the count) and one store
# in a ring of the last 64 lines; the latest notes are picked from the ring at the end.
K == "notes" {
  if ($0 ~ /^[ \t]*[^ \t\r#<]/) nn++
  RING[++nr % 64] = $0
  next
}
# latest(): R[1..shown] = the latest nnotes notes, oldest first, cleaned; the ring is read
# forward, so that comments are found as skip() finds them in the other files.
function latest(   i, got, P) {
  got = 0; incomment = 0
  for (i = (nr > 64 ? nr - 63 : 1); i <= nr; i++)
    if (!skip(RING[i % 64]) && RING[i % 64] !~ /^[ \t]*#/) P[++got] = i
  shown = got < nnotes ? got : nnotes
  if (nn < shown) nn = shown
  for (i = 1; i <= shown; i++) R[i] = clean(RING[P[got - shown + i] % 64], ".agent/memory/notes.md:" P[got - shown + i])
}
END {
  order[1] = "goal"; order[2] = "progress"; order[3] = "decisions"
  cutk[1] = "decisions"; cutk[2] = "goal"; cutk[3] = "progress"
  latest()
  for (k = 1; k <= 3; k++) keep[order[k]] = SK[order[k]] + 0
  cut_n = 0; ucut = 0; pcut = 0
  build()
  if (over()) {
    while (over() && cut1()) ;
    build()
    # The cut markers themselves cost a little: settle with a few more single cuts.
    for (pass = 0; pass < 1000 && over() && cut1(); pass++) build()
  }
  cut_s = 0
  for (k = 1; k <= 3; k++) cut_s += SN[order[k]] - keep[order[k]]
  tover = ucut + pcut + uextra + pextra
  lb = 0
  if (ENVIRON["AH_LOGF"] != "") {
    while ((getline line < ENVIRON["AH_LOGF"]) > 0) lb += length(line) + 1
    close(ENVIRON["AH_LOGF"])
  }
  # Idempotent start: when the published block is already this one, nothing is rewritten.
  same = 0
  if (ENVIRON["AH_CUR"] != "") {
    same = 1; i = 0
    while ((getline line < ENVIRON["AH_CUR"]) > 0) if (++i > n || line != L[i]) { same = 0; break }
    close(ENVIRON["AH_CUR"])
    if (i != n) same = 0
  }
  printf "AHSTATS %d %d %d %d %d %d %d %d %d %d %d %d\n", tl, sl, nn, shown - cut_n, T, C, cut_n, cut_s, tover, redacted, lb, same
  for (i = 1; i <= n; i++) print L[i]
}
