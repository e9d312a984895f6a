//go:build !(linux || darwin || dragonfly || freebsd || netbsd || openbsd)

package cli

import "errors"

// echoOff is not done here: hiddenLine reads with term.ReadPassword.
func echoOff(int) (func(), error) { return nil, errors.ErrUnsupported }
