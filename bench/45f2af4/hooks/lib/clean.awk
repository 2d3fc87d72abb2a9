# lib/clean.awk: every memory line as the model may see it; run with lib/block.awk.
# agenthooks-owned:7d2f9c1e template=hooks/lib/clean.awk@9
# clean(): a huge line cut, controls and invisible characters dropped, secrets redacted,
# invalid UTF-8 replaced, the block's own delimiters defused; unjson(): a JSON string's text
# (the user's request, a host's summary). Runs under LC_ALL=C (bytes).
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
# keyline(): a private key's secret is its body, not only its BEGIN line. From a line that opens
# a key (KEYBEGIN, no KEYEND after it) to its END line, each line of key material (KEYBODY)
# comes back as KEYLINE, which clean() redacts; a blank line is kept, any other line ends the
# key (agenthooks/redact.py key_lines). block.awk passes it the lines of a key, and those
# with PRIVATE KEY in them.
function keyline(s,   t) {
  if (FNR == 1) inkey = 0
  if (inkey) {
    if (s ~ KEYEND) { inkey = 0; return KEYLINE }
    t = s; sub(/\r$/, "", t)
    if (t ~ /^[ \t]*$/) return s
    if (t ~ KEYBODY) return KEYLINE
    inkey = 0
  }
  if (match(s, KEYBEGIN)) { inkey = substr(s, RSTART + RLENGTH) !~ KEYEND; return KEYLINE }
  return s
}
function fold(s,   o) {  # lookalike letters (redact.LOOKALIKES) as ASCII
  for (o = ""; match(s, LKRE); s = substr(s, RSTART + RLENGTH))
    o = o substr(s, 1, RSTART - 1) LK[substr(s, RSTART, RLENGTH)]
  return o s
}
# unjson(s): the inside of a JSON string as one line of text: escapes decoded (\uXXXX as UTF-8,
# a surrogate pair as one character), line breaks and tabs as blanks; an escape cut short dropped.
function unjson(s,   out, i, c, u, lo) {
  for (out = ""; (i = index(s, "\\")) > 0;) {
    out = out substr(s, 1, i - 1); c = substr(s, i + 1, 1); s = substr(s, i + 2)
    if (c == "u" && s ~ /^[0-9A-Fa-f][0-9A-Fa-f][0-9A-Fa-f][0-9A-Fa-f]/) {
      u = hex4(s); s = substr(s, 5)
      if (u >= 55296 && u < 56320 && s ~ /^\\u[dD][c-fC-F][0-9A-Fa-f][0-9A-Fa-f]/) {
        u = 65536 + (u - 55296) * 1024 + hex4(substr(s, 3)) - 56320; s = substr(s, 7)
      }
      out = out uchar(u)
    } else if (c == "n" || c == "r" || c == "t") out = out " "
    else if (c == "\"" || c == "\\" || c == "/") out = out c
  }
  return out s
}
function hex4(s,   i, v) {
  for (v = 0; i++ < 4;) v = v * 16 + index("0123456789abcdef", tolower(substr(s, i, 1))) - 1
  return v
}
# uchar(u): code point u as UTF-8 (HIGH: the bytes 128 to 255); a control or a lone surrogate as a blank.
function uchar(u) {
  if (u < 32 || (u >= 55296 && u < 57344)) return " "
  if (u < 128) return sprintf("%c", u)
  if (u < 2048) return ubyte(192 + int(u / 64)) ubyte(128 + u % 64)
  if (u < 65536) return ubyte(224 + int(u / 4096)) ubyte(128 + int(u / 64) % 64) ubyte(128 + u % 64)
  return ubyte(240 + int(u / 262144)) ubyte(128 + int(u / 4096) % 64) ubyte(128 + int(u / 64) % 64) ubyte(128 + u % 64)
}
function ubyte(n) { return substr(HIGH, n - 127, 1) }
# clean_init: the patterns clean() uses, once, from BEGIN.
function clean_init(   n, i, k, p, lookalikes) {
  NUL = sprintf("%c", 0)
  # Valid UTF-8 sequences; what clean() deletes: controls, invisible characters (redact.INVISIBLE).
  UTF8 = "^([\302-\337][\200-\277]|\340[\240-\277][\200-\277]|[\341-\354\356\357][\200-\277][\200-\277]"
  UTF8 = UTF8 "|\355[\200-\237][\200-\277]|\360[\220-\277][\200-\277][\200-\277]"
  UTF8 = UTF8 "|[\361-\363][\200-\277][\200-\277][\200-\277]|\364[\200-\217][\200-\277][\200-\277])+"
  INVISIBLE = "[\001-\010\012-\037\177]|\302[\200-\237\255]|\315\217|\330\234|\341\205[\237-\240]"
  INVISIBLE = INVISIBLE "|\341\236[\264-\265]|\341\240[\213-\217]|\342\200[\213-\217\252-\256]"
  INVISIBLE = INVISIBLE "|\342\201[\240-\257]|\343\205\244|\357\270[\200-\217]|\357\273\277"
  INVISIBLE = INVISIBLE "|\357\276\240|\357\277[\260-\270]|\360\233\262[\240-\243]"
  INVISIBLE = INVISIBLE "|\360\235\205[\263-\272]|\363\240[\200-\277][\200-\277]"
  # The bytes 128 to 255, for uchar().
  HIGH = HIGH "\200\201\202\203\204\205\206\207\210\211\212\213\214\215\216\217"
  HIGH = HIGH "\220\221\222\223\224\225\226\227\230\231\232\233\234\235\236\237"
  HIGH = HIGH "\240\241\242\243\244\245\246\247\250\251\252\253\254\255\256\257"
  HIGH = HIGH "\260\261\262\263\264\265\266\267\270\271\272\273\274\275\276\277"
  HIGH = HIGH "\300\301\302\303\304\305\306\307\310\311\312\313\314\315\316\317"
  HIGH = HIGH "\320\321\322\323\324\325\326\327\330\331\332\333\334\335\336\337"
  HIGH = HIGH "\340\341\342\343\344\345\346\347\350\351\352\353\354\355\356\357"
  HIGH = HIGH "\360\361\362\363\364\365\366\367\370\371\372\373\374\375\376\377"
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
  KEYBEGIN = "-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----"
  KEYEND = "-----END [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----"
  KEYBODY = "^[[:blank:]\\\"']*([A-Za-z0-9+/=]+|[A-Za-z][A-Za-z0-9-]*:.*)[[:blank:]\\\"',]*$"
  KEYLINE = "-----BEGIN PRIVATE KEY----- (its body)"; inkey = 0
  # Secret patterns (agenthooks/redact.py): a line matching one is redacted. X{n} is written
  # rep(X, n): not every awk knows intervals.
  secret("(AKIA|ASIA)" rep("[0-9A-Z]", 16))  # aws-access-key
  p = "[Ss][Ee][Cc][Rr][Ee][Tt][_ -]?[Aa][Cc][Cc][Ee][Ss][Ss][_ -]?[Kk][Ee][Yy][\"']?[["
  p = p ":blank:]]*([:=]|\357\274\232|\357\274\235)[[:blank:]]*[\"']?" rep("[A-Za-z0-9/+]", 16)
  secret(p)  # aws-secret-key
  p = "(gh[pousr]_" rep("[A-Za-z0-9]", 30) "|github_pat_" rep("[A-Za-z0-9_]", 30) ")"
  secret(p)  # github-token
  secret("xox[abprs]-" rep("[A-Za-z0-9-]", 10))  # slack-token
  p = "hooks\\.slack\\.com/(services|workflows|triggers)/" rep("[A-Za-z0-9_/-]", 12)
  secret(p)  # slack-webhook
  secret("sk-" rep("[A-Za-z0-9_-]", 20))  # openai-anthropic-key
  secret("[rs]k_live_" rep("[0-9A-Za-z]", 16))  # stripe-key
  secret("AIza" rep("[0-9A-Za-z_-]", 30))  # google-api-key
  secret("npm_" rep("[A-Za-z0-9]", 30))  # npm-token
  secret("hf_" rep("[A-Za-z0-9]", 30))  # huggingface-token
  secret("eyJ" rep("[A-Za-z0-9_-]", 8) "[A-Za-z0-9_-]*\\.eyJ" rep("[A-Za-z0-9_-]", 8))  # jwt
  secret("-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----")  # private-key
  p = "[Pp][Rr][Ii][Vv][Aa][Tt][Ee][_-]?[Kk][Ee][Yy]([_-]?[Ii][Dd])?[\"']?[[:blank:]]*("
  p = p "[:=]|\357\274\232|\357\274\235)[[:blank:]]*[\"']?" rep("[^[:blank:]\"'<>]", 8)
  secret(p)  # service-account-key
  secret("[A-Za-z][A-Za-z0-9+.-]*://[^/:@ ]+:[^/@ ]+@")  # password-in-url
  p = "([Pp][Aa][Ss][Ss][Ww][Oo][Rr][Dd]|[Pp][Aa][Ss][Ss][Ww][Dd]|[Ss][Ee][Cc][Rr][Ee]["
  p = p "Tt]|[Aa][Pp][Ii]_?[Kk][Ee][Yy]|[Tt][Oo][Kk][Ee][Nn]|\345\257\206\347\240\201|"
  p = p "\345\217\243\344\273\244|\345\257\206\351\222\245|\344\273\244\347\211\214)[\"']"
  p = p "?[[:blank:]]*([:=]|\357\274\232|\357\274\235)[[:blank:]]*[\"']?" rep("[^[:blank:]\"'<>]", 8)
  secret(p)  # assigned-secret
}
