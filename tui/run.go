package tui

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"slices"
	"sync"
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"golang.org/x/term"

	"github.com/skytui/skytui/theme"
)

// FPS is the renderer's frame rate while nothing happens. The v2 renderer
// wakes at this rate even when nothing changed, and each wake costs CPU:
// make bench, idle minute of a settled screen: 15 FPS 0.18–0.19 CPU
// seconds, 30 FPS 0.30, 60 FPS 0.48–0.51, 120 FPS 0.65–0.71. Input
// switches to FastFPS for a moment (frames.go), so a key's frame does not
// wait for this rate.
const FPS = 15

// Run starts the application and blocks until the user quits.
func Run(ctx context.Context, opts Options) error {
	if opts.Client == nil {
		return errors.New("tui: no API client")
	}
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	if theme.NoColorEnv(opts.Getenv) {
		opts.NoColor = true
	}
	// Terminating signals end the program through the context, so Bubble
	// Tea's own shutdown restores the terminal (leaves the alternate
	// screen, shows the cursor, restores echo and icanon). Bubble Tea's own
	// handler is off: when it and a cancelled context both fire (SIGTERM
	// with a signal-aware caller), v2.0.8 deadlocks on shutdown.
	sig := watchSignals()
	defer sig.stop()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // stops requests in flight on exit
	sig.onSignal(cancel)
	m := newModel(ctx, opts)
	pace := &pacer{}
	popts := []tea.ProgramOption{tea.WithContext(ctx), tea.WithFPS(FPS), tea.WithoutSignalHandler(), tea.WithFilter(pace.filter)}
	if opts.NoColor {
		popts = append(popts, tea.WithColorProfile(colorprofile.Ascii))
	}
	prog := tea.NewProgram(m, popts...)
	pace.prog = prog
	_, err := prog.Run()
	pace.stop()
	s := sig.received()
	if s == nil && ctx.Err() != nil {
		// cancelled from outside: a signal the caller's handler took
		// first may still be on its way to ours
		s = sig.wait(signalLag)
	}
	if s != nil {
		return &SignalError{Signal: s} // the terminal is restored by now
	}
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		return nil // the caller cancelled: a normal exit
	}
	return err
}

// terminatingSignals end the program with the terminal restored. SIGQUIT
// is among them: Go's default handler would dump the goroutines and exit
// with the terminal still raw and on the alternate screen.
var terminatingSignals = []os.Signal{syscall.SIGHUP, os.Interrupt, syscall.SIGQUIT, syscall.SIGTERM}

// shutdownGrace bounds Bubble Tea's shutdown after a signal: past it, the
// terminal is restored here and the process exits (see signalWatch.force).
const shutdownGrace = 3 * time.Second

// SignalError is what Run returns when a terminating signal ended the
// program. The terminal has been restored. The process should exit with
// ExitCode: 128 + the signal number, as a shell reports a process killed
// by that signal (SIGHUP 129, SIGINT 130, SIGQUIT 131, SIGTERM 143).
type SignalError struct{ Signal os.Signal }

func (e *SignalError) Error() string { return "terminated by signal: " + e.Signal.String() }

// ExitCode is 128 + the signal number.
func (e *SignalError) ExitCode() int {
	if s, ok := e.Signal.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 1
}

// signalWatch catches the terminating signals for the life of the program.
type signalWatch struct {
	ch   chan os.Signal
	done chan struct{}
	mu   sync.Mutex
	got  os.Signal
	tty  *term.State // the terminal's state before the program, for force
}

func watchSignals() *signalWatch {
	w := &signalWatch{ch: make(chan os.Signal, 1), done: make(chan struct{})}
	if term.IsTerminal(int(os.Stdin.Fd())) {
		w.tty, _ = term.GetState(int(os.Stdin.Fd()))
	}
	signal.Notify(w.ch, terminatingSignals...)
	return w
}

// onSignal calls cancel on the first terminating signal. Later signals
// land in the full channel and are dropped: the registration stays until
// the process exits (stop keeps it after a signal), so a second signal
// during the shutdown cannot kill the process with the terminal half
// restored, nor can a SIGQUIT dump goroutines over it. Should the shutdown
// hang, force restores the terminal after shutdownGrace and exits.
func (w *signalWatch) onSignal(cancel context.CancelFunc) {
	go func() {
		select {
		case s := <-w.ch:
			w.mu.Lock()
			w.got = s
			w.mu.Unlock()
			cancel()
			select {
			case <-w.done:
			case <-time.After(shutdownGrace):
				w.force(s)
			}
		case <-w.done:
		}
	}()
}

// received is the signal that ended the program, or nil. A signal the
// caller's own handler acted on first (its context cancelled the
// program) is in the channel already: Go delivers a signal to every
// registered channel at once.
func (w *signalWatch) received() os.Signal {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.got == nil {
		select {
		case w.got = <-w.ch:
		default:
		}
	}
	return w.got
}

// signalLag is how long Run waits, after the caller cancelled it, for a
// signal to reach the watch too.
const signalLag = 250 * time.Millisecond

// wait is received, waiting up to d for a signal still being delivered
// (to the channel, or through onSignal's goroutine to got).
func (w *signalWatch) wait(d time.Duration) os.Signal {
	for end := time.Now().Add(d); ; time.Sleep(5 * time.Millisecond) {
		if s := w.received(); s != nil || time.Now().After(end) {
			return s
		}
	}
}

// stop ends the watch. Without a signal the registration is undone; after
// one it stays, swallowing further signals until the process exits.
func (w *signalWatch) stop() {
	close(w.done)
	if w.received() == nil {
		signal.Stop(w.ch)
	}
}

// force is the fallback of a hung shutdown: leave the alternate screen,
// show the cursor, restore the tty mode and exit as for the signal.
func (w *signalWatch) force(s os.Signal) {
	_, _ = os.Stdout.WriteString(ansi.ResetModeAltScreenSaveCursor + ansi.ShowCursor + "\r\n")
	if w.tty != nil {
		_ = term.Restore(int(os.Stdin.Fd()), w.tty)
	}
	os.Exit((&SignalError{Signal: s}).ExitCode())
}

// TerminatingSignals are the signals that end skytui with the terminal
// restored, exiting 128 + the signal's number (SignalError): the command
// line's prompts end on them too.
func TerminatingSignals() []os.Signal { return slices.Clone(terminatingSignals) }
