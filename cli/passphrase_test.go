package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/skytui/skytui/config"
	"github.com/skytui/skytui/keystore"
	"github.com/skytui/skytui/tui"
)

// TestFileKeystorePassphraseAskedOncePerRun: the TUI's start with the
// encrypted-file keystore and no secrets file yet asks the API key, a new
// passphrase (twice, in one prompt) and stores the key; it does not ask
// the passphrase of the file it has just made. The next start asks the
// passphrase once. The README promises "the passphrase asked once per run".
func TestFileKeystorePassphraseAskedOncePerRun(t *testing.T) {
	h := newHarness(t)
	h.addProfile("lab") // in the file, without a key yet
	start := func() (asks []bool, opts tui.Options, stdout string) {
		t.Helper()
		var out, errOut bytes.Buffer
		e := &env{version: "test", stdin: strings.NewReader(goodKey + "\n"), stdout: &out, stderr: &errOut, loadConfig: config.Load,
			openStore: func(keystore.PassphraseFunc) (*keystore.Store, error) {
				return keystore.Open(keystore.Options{Backend: keystore.BackendFile, FilePath: h.secrets, FileWorkFactor: 10,
					Passphrase: func(_ string, create bool) (string, error) {
						asks = append(asks, create)
						return "correct horse battery", nil
					}})
			},
			tuiRun: func(_ context.Context, o tui.Options) error { opts = o; return nil },
		}
		cmd := newRootCmd(e)
		cmd.SetArgs([]string{"--profile", "lab", "--api-url", h.url})
		if err := cmd.ExecuteContext(context.Background()); err != nil {
			t.Fatalf("%v\n%s%s", err, out.String(), errOut.String())
		}
		return asks, opts, out.String()
	}

	asks, opts, out := start()
	if len(asks) != 1 || !asks[0] {
		t.Errorf("first start: passphrase prompts %v (true: a new passphrase), want one new passphrase only", asks)
	}
	if !strings.Contains(out, "Stored the API key of profile lab") || opts.NeedKey || opts.Client == nil {
		t.Errorf("first start: output %q, NeedKey %v: the key entered before the UI must be used", out, opts.NeedKey)
	}

	asks, opts, _ = start()
	if len(asks) != 1 || asks[0] {
		t.Errorf("second start: passphrase prompts %v, want one for the existing file", asks)
	}
	if opts.NeedKey || opts.Client == nil {
		t.Error("second start: the stored key was not used")
	}
}
