//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package cli

import "golang.org/x/sys/unix"

// echoOff turns the terminal fd's echo off (line editing and the signal
// keys stay on, as term.ReadPassword has them) and returns what puts the
// mode back. It is done before a hidden prompt is shown, so that nothing
// typed after the prompt is echoed, and no read left running can turn it
// off again after a ctrl+c restored it.
func echoOff(fd int) (restore func(), err error) {
	before, err := unix.IoctlGetTermios(fd, ioctlGetTermios)
	if err != nil {
		return nil, err
	}
	hidden := *before
	hidden.Lflag &^= unix.ECHO
	hidden.Lflag |= unix.ICANON | unix.ISIG
	hidden.Iflag |= unix.ICRNL
	if err := unix.IoctlSetTermios(fd, ioctlSetTermios, &hidden); err != nil {
		return nil, err
	}
	return func() { _ = unix.IoctlSetTermios(fd, ioctlSetTermios, before) }, nil
}
