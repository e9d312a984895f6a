#!/usr/bin/env bash
# End-to-end test of the cleaning of the API's text: the BUILT binary in
# tmux against `skytui sandbox --hostile`, whose answers carry terminal
# control sequences in every text field (names, regions, versions, backup
# fields, restore messages, allow-list comments, the credentials, every
# error body) and a service with a 5,000-character name. Each injected
# sequence follows a marker, HOSTILE-<tag> (sandbox/hostile.go).
#
#   SKYTUI_BIN=bin/skytui testdata/e2e/hostile.sh
#
# Steps: `skytui auth login` with a wrong key gets the hostile 401 and its
# stderr must hold no control sequence. Then the TUI's raw terminal output
# is recorded (tmux pipe-pane) while it visits every screen (1-5), opens
# details, the credentials view (copying with y, Y and u), a credentials
# refused allow-list add (a hostile 400: the list is full), the backups (copying with y and Y), a
# restore's details, and the remove confirmation of an allow-list entry of
# the 5,000-character service, whose buttons must show, also at 60x16; then
# it quits. The raw output must hold no injected sequence (a marker right
# before its sequence), none of the injected payloads' text, no OSC 8, no
# window title but the app's own ("skytui <profile>", and the empty one
# Bubble Tea resets it to on exit), no U+202E, no C1
# U+009B; every OSC 52 copy's payload (base64) must decode to text without
# control characters. See lib.sh for the settings.
set -u
# shellcheck source=testdata/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
e2e_init
e2e_home
command -v perl >/dev/null || { echo "e2e: perl is required to scan the raw output" >&2; exit 2; }
export SKYSQL_API_KEY="e2e.$$.$RANDOM"
RAW="$WORK/raw.out"
: >"$RAW"

# scan_raw FILE WHAT: FILE (a terminal's raw output or a program's stderr)
# holds nothing the hostile sandbox injected. With WHAT=stderr no escape
# at all is allowed.
scan_raw() {
	perl -e '
		use strict; use warnings; use MIME::Base64;
		my ($file, $what) = @ARGV;
		open(my $fh, "<:raw", $file) or die "open $file: $!";
		local $/; my $d = <$fh>; close $fh;
		my @bad;
		# a marker right before its injected sequence
		my %seq = (T0 => "\e]0;", T2 => "\e]2;", L8 => "\e]8;", CLR => "\e[2J", C52 => "\e]52",
			BIDI => "\xe2\x80\xae", C1 => "\xc2\x9b", NL => "\r\nline2", DCS => "\eP", KEY => "\e]0;");
		for my $t (sort keys %seq) {
			push @bad, "HOSTILE-$t followed by its sequence" if index($d, "HOSTILE-$t$seq{$t}") >= 0;
		}
		# the injected sequences payloads, which only a sequence that got
		# through (or was printed) would show
		for my $p ("touch /tmp/skytui-hostile-pwned", "touch FILE", "pwned title", "evil.example", "c1 title", "key title", "cm0gLXJmIH4K", "line2\tcol") {
			push @bad, "injected payload \"$p\"" if index($d, $p) >= 0;
		}
		push @bad, "U+202E (bidi override)" if $d =~ /\xe2\x80[\xaa-\xae]|\xe2\x81[\xa6-\xa9]/;
		push @bad, "a C1 control (UTF-8)" if $d =~ /\xc2[\x80-\x9f]/;
		push @bad, "OSC 8 (hyperlink)" if $d =~ /\e\]8;/;
		while ($d =~ /\e\](?:0|2);([^\a\e]*)/g) {
			push @bad, "window title \"$1\" (only the app\x27s own is allowed)" unless $1 =~ /^(skytui [A-Za-z0-9._-]+)?$/;
		}
		if ($what eq "stderr") {
			push @bad, "an escape" if $d =~ /\e/;
			push @bad, "a control character" if $d =~ /[\x00-\x08\x0b-\x1f\x7f]/;
		}
		my $copies = 0;
		while ($d =~ /\e\]52;[a-z]*;([A-Za-z0-9+\/=]*)(\a|\e\e\\|\e\\)/g) {
			my $p = decode_base64($1);
			$copies++;
			push @bad, "OSC 52 payload holds a control character: " . join(" ", map { sprintf "%02x", ord } grep { /[\x00-\x1f\x7f]/ } split //, $p) if $p =~ /[\x00-\x1f\x7f]/;
			push @bad, "OSC 52 payload holds a C1 or bidi control" if $p =~ /\xc2[\x80-\x9f]|\xe2\x80[\xaa-\xae\x8e\x8f]|\xe2\x81[\xa6-\xa9]/;
		}
		if (@bad) { print "$_\n" for @bad; exit 1 }
		print "copies=$copies\n";
	' "$1" "$2"
}

STEP="sandbox"
start_sandbox --hostile --log-requests # it accepts the key in SKYSQL_API_KEY

STEP="auth login with a wrong key (the hostile 401)"
printf 'wrongkey\n' | env -u SKYSQL_API_KEY "$BIN" auth login --profile h --api-url "$URL" >"$WORK/login.out" 2>"$WORK/login.err" &&
	fail "auth login accepted a wrong key"
grep -q "refused this key" "$WORK/login.err" || fail "auth login did not report the 401: $(cat -v "$WORK/login.err")"
grep -q "HOSTILE-T0" "$WORK/login.err" || fail "the 401's message (with its markers) is not in stderr: $(cat -v "$WORK/login.err")"
out=$(scan_raw "$WORK/login.err" stderr) || fail "auth login's stderr: $out"
record "auth login stderr: $(cat -v "$WORK/login.err" | head -c 300)"

STEP="start the TUI (recorded)"
# the program waits for the recording to be set up before it starts
# shellcheck disable=SC2016
tm new-session -d -s e2e -x "$WIDTH" -y "$HEIGHT" bash -c 'while [ ! -e "$0" ]; do sleep 0.05; done; exec "$1" --api-url "$2"' "$WORK/go" "$BIN" "$URL" ||
	fail "tmux could not start"
tm pipe-pane -o -t e2e "cat >> '$RAW'" || fail "tmux pipe-pane"
touch "$WORK/go"

STEP="services listed"
wait_for "orders-prod HOSTILE"
wait_for "long-name-"

# select NAME: move the Services cursor to the row starting with NAME.
select_row() {
	local i k
	for k in Up Down; do
		for i in $(seq 1 15); do
			capture | grep -qE "^> $1" && return 0
			keys "$k"
			sleep 0.15
		done
	done
	fail "no row '$1' could be selected"
}

STEP="details of the 5,000-character service"
select_row "long-name-"
keys Enter
wait_re "^ +Name +long-name-"

STEP="credentials: copy password, command, username"
keys c
wait_for "Connect (prompts for the password)"
wait_for "db.example.comHOSTILE-T0"
keys y
wait_for "ok password of long-name-"
keys Y
wait_for "ok mariadb command for long-name-"
keys u
wait_for "ok username of long-name-"
keys Escape
wait_for "x stop/start" # back in the list: its footer

STEP="remove confirmation on the 5,000-character service"
keys a
wait_for "203.0.113.66/32"
keys d
wait_for "Remove allow-list entry?"
wait_for "[ No ]"
wait_for "[ Yes ]"
screen_has "cursor on" || fail "the dialog's hint is not on screen"
if [ "$WIDTH" != 60 ] || [ "$HEIGHT" != 16 ]; then
	STEP="remove confirmation at 60x16"
	tm resize-window -t e2e -x 60 -y 16
	# the dialog is redrawn within 60 columns (as wide as its text needs)
	wait_re "[+┌╭](-|─){20,56}[+┐╮]"
	wait_for "[ No ]"
	wait_for "[ Yes ]"
	tm resize-window -t e2e -x "$WIDTH" -y "$HEIGHT"
	sleep 0.5
	wait_for "[ Yes ]"
fi
keys n
wait_for "d remove entry"

STEP="an add the API refuses (hostile 400: the list is full)"
keys n
wait_for "a /32 is added for one host"
typetext "203.0.113.99/32"
wait_for "will add 203.0.113.99/32"
keys Enter
wait_for "error: add 203.0.113.99/32"
keys Escape
wait_for "d remove entry"
keys Escape
wait_for "x stop/start" # back in the list: its footer

STEP="backups: details, copy key and GTID"
keys 2
wait_for "Backups of all services"
keys Enter
wait_re "^Backup [0-9a-f]+"
keys y
wait_for "ok backup key"
keys Y
wait_for "ok GTID position"

STEP="restores: details"
keys 3
wait_for "[ 3 Restores ]"
wait_re "^> +[0-9]+ "
keys Enter
wait_for "Restore has succeeded! HOSTILE-T0"

STEP="replication"
keys 4
wait_for "[ 4 Replication ]"

STEP="settings"
keys 5
wait_for "[ 5 Settings ]"

STEP="quit"
keys q
wait_exit e2e

STEP="scan the raw output"
[ -s "$RAW" ] || fail "nothing was recorded"
out=$(scan_raw "$RAW" terminal) || fail "the terminal received what the API injected: $out"
copies=${out#copies=}
[ "$copies" -ge 5 ] || fail "expected at least 5 OSC 52 copies in the raw output, found $copies"
grep -qa "HOSTILE-T0" "$RAW" || fail "the raw output shows no marker: the hostile data was not shown"
record "raw output: $(wc -c <"$RAW") bytes, $copies copies, clean"

echo "e2e: hostile.sh passed"
