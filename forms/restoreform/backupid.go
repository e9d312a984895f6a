package restoreform

import (
	"context"
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/skytui/skytui/api"
)

// idLookup is the backup ID step's look in the backups listed, made on
// enter before the confirmation: a short key (as every list shows it)
// becomes its backup's whole key, and a backup still running, failed or
// in a bucket is refused there, whole key or short, as the managed-storage
// step refuses it.
type idLookup struct {
	// checking is the ID being looked up ("": none)
	checking string
	// sendAsTyped is the ID that was not found (or could not be looked
	// up) and said so: enter on it again sends it as typed, the API
	// judging an identifier this machine does not list
	sendAsTyped string
}

// backupIDMsg is the answer of a lookup: the backups whose key or short
// key is id.
type backupIDMsg struct {
	wizard *Wizard
	id     string
	found  []api.Backup
	err    error
}

func (r *Wizard) lookUpBackupID(id string) tea.Cmd {
	client := r.common.Client
	if client == nil {
		r.id.sendAsTyped = id
		r.stepErr = "no API client to look " + id + " up in the backups: enter again sends it as typed"
		return nil
	}
	if r.id.checking == id {
		return nil // asked already: its answer is on the way
	}
	ids := make([]string, 0, len(r.byID))
	for sid := range r.byID {
		ids = append(ids, sid)
	}
	slices.Sort(ids)
	r.id.checking, r.stepErr = id, ""
	return func() tea.Msg {
		all, err := client.ListAllBackups(context.Background(), ids)
		var found []api.Backup
		for _, b := range all {
			if (strings.EqualFold(b.Key, id) || strings.EqualFold(api.ShortKey(b.Key), id)) && !slices.ContainsFunc(found, func(f api.Backup) bool { return f.Key == b.Key }) {
				found = append(found, b)
			}
		}
		return backupIDMsg{wizard: r, id: id, found: found, err: err}
	}
}

// onBackupID takes a lookup's answer while its ID is still the one typed:
// one backup found goes on with its whole key (or is refused, saying
// why); none, several, or a listing that failed are said next to the
// field, what was typed kept.
func (r *Wizard) onBackupID(msg backupIDMsg) tea.Cmd {
	if r.id.checking != msg.id {
		return nil
	}
	r.id.checking = ""
	if r.step != stageBackupID || strings.TrimSpace(r.idInput.Value()) != msg.id {
		return nil
	}
	switch n := len(msg.found); {
	case n == 1:
		b := msg.found[0]
		if why := api.ManagedRestoreRefusal(b); why != "" {
			r.stepErr = why + " (nothing was sent)"
			return nil
		}
		r.idInput.SetValue(b.Key)
		r.idInput.CursorEnd() // an edit goes on from the key's end, not inside it
		r.id.sendAsTyped = b.Key
		return r.chooseBackupID()
	case n > 1:
		r.stepErr = fmt.Sprintf("%s is the short key of %d backups: paste the whole key (<hash>:<service>:<pod>)", msg.id, n)
	case msg.err != nil:
		r.id.sendAsTyped = msg.id
		r.stepErr = "the backups could not be listed to look " + msg.id + " up (" + msg.err.Error() + "): enter again sends it as typed"
	default:
		r.id.sendAsTyped = msg.id
		r.stepErr = "no backup listed here has the key or short key " + msg.id + ": enter again sends it as typed, for the API to judge"
	}
	return nil
}
