# lib/audit.awk: the host's compaction summary against the rules and the In progress items.
# agenthooks-owned:7d2f9c1e template=hooks/lib/audit.awk@9
# Run by lib/compaction.sh after lib/memory.awk and lib/clean.awk, under LC_ALL=C (bytes):
# kind=tattoo FILE, kind=snapshot FILE, kind=payload - (the payload past what the hook read at
# its start, which AGENTHOOKS_PAYLOAD holds). The summary is its compact_summary field. A cheap,
# explainable match, no model: a rule or an item is kept when 3 in 5 of its significant words
# (lower case; ASCII words of three letters or more but a few common ones; CJK characters in
# pairs) are in the summary; an item is called done when 3 in 5 of them stand within 12 words of
# done, complete(d), finished or 完成 with no not, yet, pending, 未 or 没 just before it.
# Prints "audit MESSAGE" (the log line) and "tell TEXT" (what the next prompt says; no TEXT when
# the summary dropped nothing); nothing when the payload holds no summary.

# words(s, T): T[1..n] = the words of s: runs of lower-case ASCII letters and digits, and each
# other character alone. Returns n.
function words(s, T) {
  s = tolower(s)
  gsub(/[\300-\367][\200-\277]*/, " & ", s)
  gsub(/[^a-z0-9\200-\377]+/, " ", s)
  return split(s, T, " ")
}
function wide(w) { return w ~ /^[\300-\367]/ }
# significant(s, SIG): SIG[1..n] = the words of s that tell it apart. Returns n.
function significant(s, SIG,   T, m, i, n) {
  m = words(s, T)
  for (i = 1; i <= m; i++)
    if (wide(T[i]) && wide(T[i + 1])) SIG[++n] = T[i] T[i + 1]
    else if (!wide(T[i]) && length(T[i]) >= 3 && !(T[i] in COMMON)) SIG[++n] = T[i]
  return n
}
# holds(s, SET): do 3 in 5 of the significant words of s stand in SET (one with none: yes)?
function holds(s, SET,   SIG, n, i, got) {
  n = significant(s, SIG)
  for (i = 1; i <= n; i++) got += (SIG[i] in SET)
  return n == 0 || got * 5 >= n * 3
}
# quote(s): s short enough for a log line: its list mark dropped, 60 bytes, no double quote.
function quote(s) {
  sub(/^[ \t]*([-*+]|[0-9]+[.)])[ \t]+(\[[ xX]\][ \t]+)?/, "", s)
  gsub(/"/, "'", s)
  if (length(s) > 60) { s = substr(s, 1, 60); sub(/[\300-\367][\200-\277]*$/, "", s); s = s "..." }
  return s
}
kind == "tattoo" { if (classify($0) == "text" && nr < 100) RULE[++nr] = clean($0, ".agent/memory/tattoo.md:" FNR); next }
kind == "snapshot" {
  k = classify($0)
  if (k == "section") sec = section(HEADING)
  else if (k == "title") sec = ""
  else if (k == "text" && sec == "progress" && np < 100) ITEM[++np] = clean($0, ".agent/memory/snapshot.md:" FNR)
  next
}
kind == "payload" { REST = REST (FNR > 1 ? "\n" : "") $0 }
END {
  s = ENVIRON["AGENTHOOKS_PAYLOAD"] REST
  if (!(i = index(s, "\"compact_summary\""))) exit
  s = substr(s, i + 17)
  if (!sub(/^[ \t\r\n]*:[ \t\r\n]*"/, "", s)) exit
  # To the closing quote; every escape a blank (the words are what counts).
  t = s; gsub(/\\\\/, "..", t); gsub(/\\"/, "..", t)
  if ((i = index(t, "\"")) > 0) s = substr(s, 1, i - 1)
  gsub(/\\u[0-9A-Fa-f][0-9A-Fa-f][0-9A-Fa-f][0-9A-Fa-f]|\\./, " ", s)
  split("the and for with that this from into are was were has have had its our you your all any"  \
    " can will but not per via", C, " ")
  for (i in C) COMMON[C[i]] = 1
  m = words(s, T)
  for (i = 1; i <= m; i++) {
    SEEN[T[i]] = 1
    if (wide(T[i]) && wide(T[i + 1])) SEEN[T[i] T[i + 1]] = 1
  }
  # Items the summary calls done: near each "done" not negated just before it.
  split("not no never yet pending isn wasn aren hasn haven 未 没 尚 不", C, " ")
  for (i in C) NEG[C[i]] = 1
  for (p = 1; p <= m && marks < 200; p++) {
    if (T[p] ~ /^(done|complete|completed|finished)$/) q = p
    else if (T[p] T[p + 1] == "完成") q = p
    else continue
    if ((T[q - 1] in NEG) || (T[q - 2] in NEG) || (T[q - 3] in NEG)) continue
    marks++
    split("", NEAR)
    for (j = (q > 12 ? q - 12 : 1); j <= q + 12 && j <= m; j++) {
      NEAR[T[j]] = 1
      if (wide(T[j]) && wide(T[j + 1])) NEAR[T[j] T[j + 1]] = 1
    }
    for (i = 1; i <= np; i++) if (!(i in DONE) && holds(ITEM[i], NEAR)) DONE[i] = 1
  }
  kr = 0; kp = 0; msg = ""; told = ""; done = ""
  for (i = 1; i <= nr; i++) {
    if (holds(RULE[i], SEEN)) { kr++; continue }
    msg = msg "; dropped rule " i " \"" quote(RULE[i]) "\""
    told = told (told == "" ? "" : ", ") sprintf("rule %d (\"%s\")", i, quote(RULE[i]))
  }
  for (i = 1; i <= np; i++) {
    if (holds(ITEM[i], SEEN)) kp++
    else {
      msg = msg "; In progress item " i " missing \"" quote(ITEM[i]) "\""
      told = told (told == "" ? "" : ", ") sprintf("In progress item %d (\"%s\")", i, quote(ITEM[i]))
    }
    if (i in DONE) {
      msg = msg "; In progress item " i " called done \"" quote(ITEM[i]) "\""
      done = done (done == "" ? "" : ", ") sprintf("In progress item %d (\"%s\")", i, quote(ITEM[i]))
    }
  }
  printf "audit summary audit: kept %d of %d rules, %d of %d In progress items%s\n", kr, nr, kp, np, msg
  if (told != "") told = sprintf("agenthooks: the compaction summary left out %s; the memory block has them: " \
      "follow it.", told)
  if (done != "") done = sprintf("agenthooks: the compaction summary calls %s done, which the board does not: " \
      "check it before you move on.", done)
  if (done != "") told = told (told == "" ? "" : " ") done
  print "tell " told
}
