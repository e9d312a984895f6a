package replsetup

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/skytui/skytui/config"
)

// Saved state: per profile, the unfinished setup (to resume after the app
// was closed) and the pairs set up (for the status view), in
// replication.json in the user state directory. IDs, names, backup keys,
// GTID positions, restore IDs and which steps passed: never a password, a
// credential or the grant (which carries the replication password).

// StateFileName is the file in config.StateDir().
const StateFileName = "replication.json"

// ProfileState is what is kept for one profile.
type ProfileState struct {
	Setup *Progress `json:"setup,omitempty"`
	Pairs []Pair    `json:"pairs,omitempty"`
}

func (ps ProfileState) Clone() ProfileState {
	out := ProfileState{Pairs: append([]Pair(nil), ps.Pairs...)}
	if ps.Setup != nil {
		s := *ps.Setup
		out.Setup = &s
	}
	return out
}

// WithPair adds or replaces the pair of secondary p.SecondaryID (a
// secondary replicates from one primary).
func (ps *ProfileState) WithPair(p Pair) {
	for i := range ps.Pairs {
		if ps.Pairs[i].SecondaryID == p.SecondaryID {
			ps.Pairs[i] = p
			return
		}
	}
	ps.Pairs = append(ps.Pairs, p)
}

func (ps *ProfileState) WithoutPair(secondaryID string) {
	out := ps.Pairs[:0]
	for _, p := range ps.Pairs {
		if p.SecondaryID != secondaryID {
			out = append(out, p)
		}
	}
	ps.Pairs = out
}

type stateFile struct {
	Version  int                      `json:"version"`
	Profiles map[string]*ProfileState `json:"profiles"`
}

// Store reads and writes the state file. Saves carry a sequence number:
// one older than the last written is dropped, so saves run in commands in
// any order and the newest state wins.
type Store struct {
	// Path is the file; empty means config.StateDir()/replication.json.
	Path string

	mu      sync.Mutex
	seq     uint64
	lastSeq map[string]uint64
	gen     uint64 // the file's reads and writes through this store, counted
}

// NextSeq numbers a save; take it when the state is captured (in Update),
// not when it is written.
func (s *Store) NextSeq() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seq++
	return s.seq
}

// stores are shared per path, so that screens rebuilt on a profile switch
// keep the ordering of saves.
var (
	storesMu sync.Mutex
	stores   = map[string]*Store{}
)

// DefaultStore is the store of the user state directory.
func DefaultStore() *Store {
	path := ""
	if dir, err := config.StateDir(); err == nil {
		path = filepath.Join(dir, StateFileName)
	}
	storesMu.Lock()
	defer storesMu.Unlock()
	if s, ok := stores[path]; ok {
		return s
	}
	s := &Store{Path: path}
	stores[path] = s
	return s
}

func (s *Store) path() (string, error) {
	if s.Path != "" {
		return s.Path, nil
	}
	dir, err := config.StateDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, StateFileName), nil
}

func (s *Store) read() (*stateFile, error) {
	path, err := s.path()
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &stateFile{Version: 1, Profiles: map[string]*ProfileState{}}, nil
	}
	if err != nil {
		return nil, err
	}
	var f stateFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("%s is damaged (%v): it will be replaced on the next save", path, err)
	}
	if f.Profiles == nil {
		f.Profiles = map[string]*ProfileState{}
	}
	return &f, nil
}

// Load returns the state of profile (empty when none).
func (s *Store) Load(profile string) (ProfileState, error) {
	ps, _, err := s.Read(profile)
	return ps, err
}

// Read is Load, with the number of the read among this store's reads and
// writes of the file (Apply's): a process that reads the file again
// while it writes it (the TUI, polling it for the pairs another process
// saved) tells a read that began before its last write by a smaller
// number.
func (s *Store) Read(profile string) (ProfileState, uint64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.gen++
	f, err := s.read()
	if err != nil {
		return ProfileState{}, s.gen, err
	}
	if ps := f.Profiles[profile]; ps != nil {
		return ps.Clone(), s.gen, nil
	}
	return ProfileState{}, s.gen, nil
}

// PairEdit is one change of the saved pairs: Pair added (or replacing the
// pair of its secondary), or with Forget the pair of Pair.SecondaryID
// removed.
type PairEdit struct {
	Pair   Pair
	Forget bool
}

// Change is one save of a process that shares the file with others (the
// TUI, while `skytui replication setup` saves a pair): what it changed,
// applied to what the file holds when it is written, so that a pair
// another process saved meanwhile is kept.
type Change struct {
	// Seq numbers the save (NextSeq): the setup of a change older than
	// one written already is left as that one wrote it (0: always set).
	Seq   uint64
	Setup *Progress  // the unfinished setup (nil: none)
	Edits []PairEdit // the pairs added and forgotten, in order
	// Pairs are all the pairs the writer knows: what is written when the
	// file is damaged (nothing of it can be kept)
	Pairs []Pair
}

// Apply writes c into profile's state as the file holds it now, and
// returns the state written with its number among the store's reads and
// writes (Read's).
func (s *Store) Apply(profile string, c Change) (ProfileState, uint64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lastSeq == nil {
		s.lastSeq = map[string]uint64{}
	}
	var ps ProfileState
	f, err := s.read()
	switch {
	case err != nil: // damaged: start again, with the writer's pairs
		f = &stateFile{Profiles: map[string]*ProfileState{}}
		ps.Pairs = append([]Pair(nil), c.Pairs...)
	case f.Profiles[profile] != nil:
		ps = f.Profiles[profile].Clone()
	}
	for _, e := range c.Edits {
		if e.Forget {
			ps.WithoutPair(e.Pair.SecondaryID)
		} else {
			ps.WithPair(e.Pair)
		}
	}
	newest := c.Seq == 0 || c.Seq > s.lastSeq[profile]
	if newest {
		ps.Setup = nil
		if c.Setup != nil {
			p := *c.Setup
			ps.Setup = &p
		}
	}
	if err := s.write(f, profile, ps); err != nil {
		return ProfileState{}, 0, err
	}
	if c.Seq != 0 && newest {
		s.lastSeq[profile] = c.Seq
	}
	s.gen++
	return ps.Clone(), s.gen, nil
}

// Save writes the state of profile; seq orders saves (0 always writes).
func (s *Store) Save(profile string, ps ProfileState, seq uint64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lastSeq == nil {
		s.lastSeq = map[string]uint64{}
	}
	if seq != 0 && seq <= s.lastSeq[profile] {
		return nil // a newer state was written already
	}
	f, err := s.read()
	if err != nil {
		f = &stateFile{Profiles: map[string]*ProfileState{}} // damaged: start again
	}
	if err := s.write(f, profile, ps); err != nil {
		return err
	}
	s.gen++
	if seq != 0 {
		s.lastSeq[profile] = seq
	}
	return nil
}

// write writes f with profile's state replaced by ps (s.mu held).
func (s *Store) write(f *stateFile, profile string, ps ProfileState) error {
	f.Version = 1
	if ps.Setup == nil && len(ps.Pairs) == 0 {
		delete(f.Profiles, profile)
	} else {
		c := ps.Clone()
		f.Profiles[profile] = &c
	}
	out, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	path, err := s.path()
	if err != nil {
		return err
	}
	return config.WriteFileAtomic(path, append(out, '\n'))
}
