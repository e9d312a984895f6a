package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync/atomic"

	"golang.org/x/term"

	"github.com/skytui/skytui/keystore"
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

func (p *prompter) line() (string, error) {
	if p.reader == nil {
		p.reader = bufio.NewReader(p.in)
	}
	s, err := p.reader.ReadString('\n')
	if err != nil && !(errors.Is(err, io.EOF) && s != "") {
		if errors.Is(err, io.EOF) {
			return "", errors.New("no input (standard input is empty)")
		}
		return "", err
	}
	return strings.TrimRight(s, "\r\n"), nil
}

// Secret asks for a value without echo.
func (p *prompter) Secret(label string) (string, error) {
	if fd, ok := p.terminalFd(); ok {
		fmt.Fprintf(p.out, "%s: ", label)
		b, err := term.ReadPassword(fd)
		fmt.Fprintln(p.out)
		if err != nil {
			return "", err
		}
		return strings.TrimSpace(string(b)), nil
	}
	s, err := p.line()
	return strings.TrimSpace(s), err
}

// Ask asks for a value that may be shown.
func (p *prompter) Ask(label string) (string, error) {
	if _, ok := p.terminalFd(); ok {
		fmt.Fprintf(p.out, "%s: ", label)
	}
	s, err := p.line()
	return strings.TrimSpace(s), err
}

// Passphrase is the keystore's file passphrase prompt: on the terminal only
// (a passphrase is never read from a pipe by accident), twice when creating.
func (p *prompter) Passphrase(path string, create bool) (string, error) {
	if p.tuiActive != nil && p.tuiActive.Load() {
		return "", fmt.Errorf("the encrypted secrets file %s needs its passphrase, which cannot be asked while the terminal UI runs: quit and run `skytui auth status` (or `skytui creds list`) once to unlock it", path)
	}
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return "", fmt.Errorf("the encrypted secrets file %s needs a passphrase, and there is no terminal to ask on (non-interactive): use another backend with SKYTUI_SECRETS_BACKEND, or SKYSQL_API_KEY", path)
	}
	defer tty.Close()
	ask := func(label string) (string, error) {
		fmt.Fprintf(tty, "%s: ", label)
		b, err := term.ReadPassword(int(tty.Fd()))
		fmt.Fprintln(tty)
		return string(b), err
	}
	if !create {
		return ask("Passphrase for " + path)
	}
	fmt.Fprintln(tty, keystore.FileNote(os.Getenv, path))
	a, err := ask("New passphrase")
	if err != nil {
		return "", err
	}
	if len(a) < 8 {
		return "", errors.New("passphrase: at least 8 characters")
	}
	b, err := ask("Repeat the passphrase")
	if err != nil {
		return "", err
	}
	if a != b {
		return "", errors.New("passphrase: the two entries differ")
	}
	return a, nil
}
