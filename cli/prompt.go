package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync/atomic"

	"golang.org/x/term"

	"github.com/skytui/skytui/keystore"
	"github.com/skytui/skytui/tui"
)

// prompter reads answers and secrets: from the terminal without echo when
// there is one, else one line from standard input (so a key can be piped in,
// never passed in argv).
type prompter struct {
	// tuiActive is set while the terminal UI owns the terminal: a
	// passphrase cannot be asked on /dev/tty then.
	tuiActive *atomic.Bool
	in        io.Reader
	out       io.Writer // prompts go here (stderr), so stdout stays clean
	reader    *bufio.Reader
}

func newPrompter(in io.Reader, out io.Writer) *prompter {
	return &prompter{in: in, out: out}
}

func (p *prompter) terminalFd() (int, bool) {
	f, ok := p.in.(*os.File)
	if !ok {
		return 0, false
	}
	fd := int(f.Fd())
	return fd, term.IsTerminal(fd)
}

// terminal says whether answers are typed at a terminal (else they are
// read from a pipe or a file, one line each).
func (p *prompter) terminal() bool {
	_, ok := p.terminalFd()
	return ok
}

// errNoInput is a read from a standard input that has nothing (more).
var errNoInput = usageErr(errors.New("no input (standard input is empty)")) // exit 2: what was not given

func (p *prompter) line() (string, error) {
	if p.reader == nil {
		p.reader = bufio.NewReader(p.in)
	}
	return untilSignal(nil, func() (string, error) {
		s, err := p.reader.ReadString('\n')
		if err != nil && !(errors.Is(err, io.EOF) && s != "") {
			if errors.Is(err, io.EOF) {
				return "", errNoInput
			}
			return "", err
		}
		return strings.TrimRight(s, "\r\n"), nil
	})
}

// Secret asks for a value without echo.
func (p *prompter) Secret(label string) (string, error) {
	if f, ok := p.in.(*os.File); ok && p.terminal() {
		s, err := hiddenLine(f, p.out, label)
		return strings.TrimSpace(s), err
	}
	s, err := p.line()
	return strings.TrimSpace(s), err
}

// Ask asks for a value that may be shown.
func (p *prompter) Ask(label string) (string, error) {
	if p.terminal() {
		fmt.Fprintf(p.out, "%s: ", label)
	}
	s, err := p.line()
	if interrupted(err) && p.terminal() {
		fmt.Fprintln(p.out) // the shell's prompt goes on a line of its own
	}
	return strings.TrimSpace(s), err
}

// hiddenLine shows label on out and reads a line from the terminal tty
// without echo. Echo goes off before the label is shown and back on when
// the line is read, or at once on a terminating signal (ctrl+c), which
// ends the read.
func hiddenLine(tty *os.File, out io.Writer, label string) (string, error) {
	fd := int(tty.Fd())
	restore, err := echoOff(fd)
	if err != nil {
		// no termios here: term.ReadPassword turns echo off itself
		fmt.Fprintf(out, "%s: ", label)
		s, err := untilSignal(nil, func() (string, error) {
			b, err := term.ReadPassword(fd)
			return string(b), err
		})
		fmt.Fprintln(out)
		return s, err
	}
	fmt.Fprintf(out, "%s: ", label)
	// the read changes no mode: a read left running after a ctrl+c
	// cannot turn echo off again
	s, err := untilSignal(restore, func() (string, error) { return readLine(tty) })
	if !interrupted(err) {
		restore()
	}
	fmt.Fprintln(out)
	return s, err
}

// readLine reads up to a newline, a byte at a time (the terminal, in line
// mode, hands over a whole line), without it.
func readLine(r io.Reader) (string, error) {
	var line []byte
	b := make([]byte, 1)
	for {
		n, err := r.Read(b)
		if n == 1 {
			if b[0] == '\n' {
				return strings.TrimSuffix(string(line), "\r"), nil
			}
			line = append(line, b[0])
		}
		if errors.Is(err, io.EOF) {
			if len(line) == 0 {
				return "", errNoInput
			}
			return string(line), nil
		}
		if err != nil {
			return "", err
		}
	}
}

// interrupted says whether err is a terminating signal's (untilSignal).
func interrupted(err error) bool {
	var sig *tui.SignalError
	return errors.As(err, &sig)
}

// untilSignal runs read, which may block, until it returns or a
// terminating signal comes (ctrl+c at a prompt: the signal context of
// main only cancels requests, and a read of the terminal would go on).
// Then restore (if any) puts the terminal back, read is left behind, and
// the answer is a *tui.SignalError, with which the process exits 128 + the
// signal's number, nothing stored.
func untilSignal[T any](restore func(), read func() (T, error)) (T, error) {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, tui.TerminatingSignals()...)
	defer signal.Stop(sig)
	type answer struct {
		v   T
		err error
	}
	done := make(chan answer, 1)
	go func() {
		v, err := read()
		done <- answer{v, err}
	}()
	select {
	case a := <-done:
		return a.v, a.err
	case s := <-sig:
		if restore != nil {
			restore()
		}
		var zero T
		return zero, &tui.SignalError{Signal: s}
	}
}

// Passphrase is the keystore's file passphrase prompt: on the terminal only
// (a passphrase is never read from a pipe by accident), twice when creating.
func (p *prompter) Passphrase(path string, create bool) (string, error) {
	if p.tuiActive != nil && p.tuiActive.Load() {
		return "", fmt.Errorf("the encrypted secrets file %s needs its passphrase, which cannot be asked while the terminal UI runs: quit and start skytui again, which asks it before the UI starts", path)
	}
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return "", fmt.Errorf("the encrypted secrets file %s needs a passphrase, and there is no terminal to ask on (non-interactive): use another backend with SKYTUI_SECRETS_BACKEND, or SKYSQL_API_KEY", path)
	}
	defer tty.Close()
	ask := func(label string) (string, error) {
		s, err := hiddenLine(tty, tty, label)
		var sig *tui.SignalError
		if errors.As(err, &sig) {
			// ctrl+c: the keystore asked, and what it makes of an error
			// (a refused read) is not an interrupt; the terminal is
			// restored, nothing was read or stored
			os.Exit(sig.ExitCode())
		}
		return s, err
	}
	if !create {
		return ask("Passphrase for " + path)
	}
	fmt.Fprintln(tty, keystore.FileNote(os.Getenv, path))
	// the rule is said before the first entry; a refused one is asked
	// again, so nothing typed later falls through to the shell
	fmt.Fprintf(tty, "A passphrase has at least %d characters; it is asked twice.\n", minPassphrase)
	var why string
	for try := 1; try <= passphraseTries; try++ {
		a, err := ask("New passphrase")
		if err != nil {
			return "", err
		}
		// why is said after the keystore's "passphrase: " at the end
		if len(a) < minPassphrase {
			why = fmt.Sprintf("at least %d characters", minPassphrase)
			fmt.Fprintf(tty, "passphrase: %s (%d typed)%s\n", why, len(a), againNote(try))
			continue
		}
		b, err := ask("Repeat the passphrase")
		if err != nil {
			return "", err
		}
		if a != b {
			why = "the two entries differ"
			fmt.Fprintln(tty, "passphrase: "+why+againNote(try))
			continue
		}
		return a, nil
	}
	return "", usageErrf("%s (%d tries; nothing was stored)", why, passphraseTries)
}

// minPassphrase is the shortest passphrase a new encrypted file takes;
// passphraseTries, how often a passphrase is asked before giving up.
const (
	minPassphrase   = 8
	passphraseTries = 3
)

// againNote says that a refused passphrase is asked again, unless try
// was the last.
func againNote(try int) string {
	if try < passphraseTries {
		return ": try again"
	}
	return ""
}
