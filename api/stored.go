package api

import "strings"

// Where backups go, in the words the tables show: the Backups screen's
// STORED and TARGET columns and the command line's -o wide columns of the
// same names.

// External reports a backup written to the user's own bucket rather than
// to managed storage.
func (b *Backup) External() bool { return b.IsExternalStorage || b.Bucket != "" }

// Stored is where backup b is kept: "managed", the path of the own bucket
// it was written to, or "own bucket" when the listing says only that.
func (b *Backup) Stored() string {
	switch {
	case b.Bucket != "":
		return b.Bucket
	case b.External():
		return "own bucket"
	}
	return ManagedPlace
}

// ManagedPlace is managed storage, in the words of TargetText and Stored.
const ManagedPlace = "managed"

// TargetText is where schedule s writes its backups: ManagedPlace (no
// target said, or "managed" in any case) or the path of the user's own
// bucket.
func (s *Schedule) TargetText() string {
	t := strings.TrimSpace(s.Target)
	if t == "" || strings.EqualFold(t, ManagedPlace) {
		return ManagedPlace
	}
	return t
}
