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
	s.mu.Lock()
	defer s.mu.Unlock()
	f, err := s.read()
	if err != nil {
		return ProfileState{}, err
	}
	if ps := f.Profiles[profile]; ps != nil {
		return ps.Clone(), nil
	}
	return ProfileState{}, nil
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
	if err := config.WriteFileAtomic(path, append(out, '\n')); err != nil {
		return err
	}
	if seq != 0 {
		s.lastSeq[profile] = seq
	}
	return nil
}
