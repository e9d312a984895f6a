package kit

import (
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
)

// FocusField moves a form, just built and initialised, to target: where
// e goes after a refusal that names a field. groups are the form's fields
// group by group, as built. It jumps group by group (hidden groups are
// skipped, nothing is validated on the way: a list whose options are
// still loading does not stop it), then field by field inside the
// target's group. The caller makes sure target's group is shown.
func FocusField(form *huh.Form, groups [][]huh.Field, target huh.Field) tea.Cmd {
	g := slices.IndexFunc(groups, func(fs []huh.Field) bool { return slices.Contains(fs, target) })
	if target == nil || g < 0 {
		return nil
	}
	var cmds []tea.Cmd
	for range groups {
		if slices.Contains(groups[g], form.GetFocusedField()) || form.State != huh.StateNormal {
			break
		}
		cmds = append(cmds, form.NextGroup())
	}
	for range groups[g] {
		cur := form.GetFocusedField()
		if cur == target || !slices.Contains(groups[g], cur) {
			break
		}
		cmds = append(cmds, form.NextField())
		if form.GetFocusedField() == cur {
			break // the field's check holds it
		}
	}
	return tea.Batch(cmds...)
}

// RefusalWords is what a refusal says, without the request it names
// ("… (POST /backup/v1/backups/schedules, trace …)"): the words a form
// looks in for the field to go back to.
func RefusalWords(text string) string {
	for _, m := range []string{" (GET ", " (POST ", " (PUT ", " (PATCH ", " (DELETE "} {
		if i := strings.LastIndex(text, m); i >= 0 {
			text = text[:i]
		}
	}
	return strings.ToLower(text)
}
