//go:build unix

package config

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// checkPermissions refuses a config file that other users may change: the
// file decides where the API key is sent (base_url), so a group- or
// world-writable file, or one in a directory others may write (where the
// file can be replaced; a sticky directory such as /tmp is fine), is an
// error naming the file, its mode and the chmod that fixes it. f is the open
// file (its mode is read from it, so a rename in between changes nothing).
// For a symbolic link both the link's directory and the target's are
// checked.
func checkPermissions(path string, f *os.File) error {
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("config %s: %w", path, err)
	}
	if m := fi.Mode().Perm(); m&0o022 != 0 {
		return fmt.Errorf("config %s: mode %04o lets other users change it (group- or world-writable), and it decides where your API key is sent; refusing to use it (fix: chmod go-w %s)",
			path, m, shellPath(path))
	}
	dirs := []string{filepath.Dir(path)}
	if real, err := filepath.EvalSymlinks(path); err == nil && filepath.Dir(real) != dirs[0] {
		dirs = append(dirs, filepath.Dir(real))
	}
	for _, dir := range dirs {
		di, err := os.Stat(dir)
		if err != nil {
			continue // the file was opened: its directory is there; nothing to add
		}
		if m := di.Mode(); m.Perm()&0o022 != 0 && m&fs.ModeSticky == 0 {
			return fmt.Errorf("config %s: its directory %s has mode %04o (group- or world-writable), so other users can replace the file that decides where your API key is sent; refusing to use it (fix: chmod go-w %s)",
				path, dir, m.Perm(), shellPath(dir))
		}
	}
	return nil
}
