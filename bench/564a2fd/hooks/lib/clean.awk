# lib/clean.awk: every memory line as the model may see it; run with lib/block.awk.
# agenthooks-owned:7d2f9c1e template=hooks/lib/clean.awk@9
# clean(): a huge line cut, controls and invisible characters dropped, secrets redacted,
# invalid UTF-8 replaced, the block's own delimiters defused. Runs under LC_ALL=C (bytes).
# Invalid UTF-8 becomes "?", so every JSON parser accepts the output.
function utf8(s,   out, r) {
  for (out = ""; s != ""; s = substr(s, r + 1))
    if (match(s, /^[\001-\177]+/) || match(s, UTF8)) { out = out substr(s, 1, RLENGTH); r = RLENGTH }
    else { out = out "?"; r = 1 }
  return out
}
function secret(p) { SECRET = SECRET (SECRET == "" ? "" : "|") "(" p ")" }
function rep(s, n,   o) { for (o = ""; n-- > 0;) o = o s; return o }
function clean(s, where,   i, long, t) {
  # Only the first 600 bytes are shown: cut a huge line first, so that neither the NUL
  # loop nor the secret regex (quadratic on long runs in some awks) sees megabytes.
  long = 0
  if (length(s) > 1200) { s = substr(s, 1, 1200); long = 1 }
  if (NUL != "") while ((i = index(s, NUL)) > 0) s = substr(s, 1, i - 1) substr(s, i + 1)
  # Normalise first: no control or invisible character (redact.INVISIBLE) splits a secret.
  gsub(/\t/, "  ", s)
  gsub(INVISIBLE, "", s)
  if (SECRET != "" && s ~ SECRET) {
    redacted++
    return sprintf("[redacted by agenthooks: a line of %s looks like a secret]", where)
  }
  if (long || length(s) > 600) { s = substr(s, 1, 600); sub(/[\300-\367][\200-\277]*$/, "", s); s = s " [...]" }
  if (s ~ /[\200-\377]/) s = utf8(s)
  # Memory text must not be able to close (or reopen) the block, even with lookalikes.
  t = (s ~ /[\316\320\321\357]/) ? fold(s) : s
  if (toupper(t) ~ /AGENT[^A-Z0-9]*MEMORY[^A-Z0-9]*(BEGIN|END)/) {
    s = t; gsub(/[Aa][Gg][Ee][Nn][Tt][^A-Za-z0-9]*[Mm][Ee][Mm][Oo][Rr][Yy]/, "agent-memory(quoted)", s)
  }
  return s
}
function fold(s,   o) {  # lookalike letters (redact.LOOKALIKES) as ASCII
  for (o = ""; match(s, LKRE); s = substr(s, RSTART + RLENGTH))
    o = o substr(s, 1, RSTART - 1) LK[substr(s, RSTART, RLENGTH)]
  return o s
}
# clean_init: the patterns clean() uses, once, from BEGIN.
function clean_init(   n, i, k, p, lookalikes) {
  NUL = sprintf("%c", 0)
  # Valid UTF-8 sequences; what clean() deletes: controls, invisible characters (redact.INVISIBLE).
  UTF8 = "^([\302-\337][\200-\277]|\340[\240-\277][\200-\277]|[\341-\354\356\357][\200-\277][\200-\277]"
  UTF8 = UTF8 "|\355[\200-\237][\200-\277]|\360[\220-\277][\200-\277][\200-\277]"
  UTF8 = UTF8 "|[\361-\363][\200-\277][\200-\277][\200-\277]|\364[\200-\217][\200-\277][\200-\277])+"
  INVISIBLE = "[\001-\037\177]|\302[\200-\237\255]|\342\200[\213-\217\252-\256]"
  INVISIBLE = INVISIBLE "|\342\201[\240-\244\246-\251]|\357\273\277"
  # Lookalike letters (redact.LOOKALIKES): UTF-8 bytes, then the ASCII letter they fold to.
  lookalikes = lookalikes " \320\220A \320\222B \320\225E \320\206I \320\232K \320\234M \320\235H \320\236O \320\240P"
  lookalikes = lookalikes " \320\241C \320\242T \320\243Y \320\245X \320\260a \320\265e \321\226i \320\276o \321\200p"
  lookalikes = lookalikes " \321\201c \321\203y \321\205x \316\221A \316\222B \316\225E \316\227H \316\231I \316\232K"
  lookalikes = lookalikes " \316\234M \316\235N \316\237O \316\241P \316\244T \316\245Y \316\247X \316\226Z \316\277o"
  lookalikes = lookalikes " \357\274\241A \357\274\242B \357\274\243C \357\274\244D \357\274\245E \357\274\246F"
  lookalikes = lookalikes " \357\274\247G \357\274\250H \357\274\251I \357\274\252J \357\274\253K \357\274\254L"
  lookalikes = lookalikes " \357\274\255M \357\274\256N \357\274\257O \357\274\260P \357\274\261Q \357\274\262R"
  lookalikes = lookalikes " \357\274\263S \357\274\264T \357\274\265U \357\274\266V \357\274\267W \357\274\270X"
  lookalikes = lookalikes " \357\274\271Y \357\274\272Z \357\275\201a \357\275\202b \357\275\203c \357\275\204d"
  lookalikes = lookalikes " \357\275\205e \357\275\206f \357\275\207g \357\275\210h \357\275\211i \357\275\212j"
  lookalikes = lookalikes " \357\275\213k \357\275\214l \357\275\215m \357\275\216n \357\275\217o \357\275\220p"
  lookalikes = lookalikes " \357\275\221q \357\275\222r \357\275\223s \357\275\224t \357\275\225u \357\275\226v"
  lookalikes = lookalikes " \357\275\227w \357\275\230x \357\275\231y \357\275\232z"
  n = split(lookalikes, LKT, " ")
  for (i = 1; i <= n; i++) {
    k = substr(LKT[i], 1, length(LKT[i]) - 1); LK[k] = substr(LKT[i], length(LKT[i]))
    LKRE = LKRE (i > 1 ? "|" : "") k
  }
  # Secret patterns (agenthooks/redact.py): a line matching one is redacted. X{n} is written
  # rep(X, n): not every awk knows intervals.
  secret("(AKIA|ASIA)" rep("[0-9A-Z]", 16))  # aws-access-key
  p = "(gh[pousr]_" rep("[A-Za-z0-9]", 30) "|github_pat_" rep("[A-Za-z0-9_]", 30) ")"
  secret(p)  # github-token
  secret("xox[abprs]-" rep("[A-Za-z0-9-]", 10))  # slack-token
  secret("sk-" rep("[A-Za-z0-9_-]", 20))  # openai-anthropic-key
  secret("AIza" rep("[0-9A-Za-z_-]", 30))  # google-api-key
  secret("-----BEGIN [A-Z ]*PRIVATE KEY-----")  # private-key
  secret("[A-Za-z][A-Za-z0-9+.-]*://[^/:@ ]+:[^/@ ]+@")  # password-in-url
  p = "([Pp][Aa][Ss][Ss][Ww][Oo][Rr][Dd]|[Pp][Aa][Ss][Ss][Ww][Dd]|[Ss][Ee][Cc][Rr][Ee]["
  p = p "Tt]|[Aa][Pp][Ii]_?[Kk][Ee][Yy]|[Tt][Oo][Kk][Ee][Nn])[\\\"']?[[:blank:]]*[:=][[:bla"
  p = p "nk:]]*[\\\"']?" rep("[^[:blank:]\\\"'<>]", 8)
  secret(p)  # assigned-secret
}
