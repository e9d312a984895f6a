package backups

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/skytui/skytui/config"
)

// The last service shown, per profile, survives the session in a small
// file in the user state directory (state.json): service IDs only, never a
// secret. Other keys of the file are kept as they are.

// StateFile returns the path of the state file; tests replace it. An
// empty path turns remembering off.
var StateFile = func() (string, error) {
	dir, err := config.StateDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "state.json"), nil
}

const lastServiceKey = "backups_last_service"

var stateMu sync.Mutex // one read-modify-write at a time in this process

// LoadLastService returns the service remembered for profile, or "".
func LoadLastService(profile string) (string, error) {
	stateMu.Lock()
	defer stateMu.Unlock()
	doc, err := readState()
	if err != nil {
		return "", err
	}
	var last map[string]string
	if raw, ok := doc[lastServiceKey]; ok {
		if err := json.Unmarshal(raw, &last); err != nil {
			return "", nil // a damaged entry is forgotten, not fatal
		}
	}
	return last[profile], nil
}

// SaveLastService remembers id as the last service of profile.
func SaveLastService(profile, id string) error {
	stateMu.Lock()
	defer stateMu.Unlock()
	doc, err := readState()
	if err != nil {
		doc = map[string]json.RawMessage{} // unreadable: start again
	}
	last := map[string]string{}
	if raw, ok := doc[lastServiceKey]; ok {
		_ = json.Unmarshal(raw, &last)
	}
	if last == nil {
		last = map[string]string{}
	}
	if last[profile] == id {
		return nil
	}
	last[profile] = id
	raw, err := json.Marshal(last)
	if err != nil {
		return err
	}
	doc[lastServiceKey] = raw
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	path, err := StateFile()
	if err != nil || path == "" {
		return err
	}
	return config.WriteFileAtomic(path, append(out, '\n'))
}

func readState() (map[string]json.RawMessage, error) {
	path, err := StateFile()
	if err != nil {
		return nil, err
	}
	if path == "" {
		return map[string]json.RawMessage{}, nil
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]json.RawMessage{}, nil
	}
	if err != nil {
		return nil, err
	}
	doc := map[string]json.RawMessage{}
	if err := json.Unmarshal(data, &doc); err != nil || doc == nil {
		return map[string]json.RawMessage{}, nil
	}
	return doc, nil
}
