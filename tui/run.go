package tui

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"syscall"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/skytui/skytui/theme"
)

// FPS caps the renderer. The v2 renderer wakes at this rate even when
// nothing changed; measured with testdata/e2e/idle.sh on a settled screen:
// 20 FPS ~0.55% of a core, 15 FPS ~0.42%, 10 FPS ~0.27% (budget 0.5%).
// 15 keeps typing responsive (67 ms at worst) within the budget.
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
	// Signals end the program through the context. Bubble Tea's own
	// handler is off: when it and a cancelled context both fire (SIGTERM
	// with a signal-aware caller), v2.0.8 deadlocks on shutdown.
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // stops requests in flight on exit
	m := newModel(ctx, opts)
	popts := []tea.ProgramOption{tea.WithContext(ctx), tea.WithFPS(FPS), tea.WithoutSignalHandler()}
	if opts.NoColor {
		popts = append(popts, tea.WithColorProfile(colorprofile.Ascii))
	}
	_, err := tea.NewProgram(m, popts...).Run()
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		return nil // the caller cancelled (signal): a normal exit
	}
	return err
}
