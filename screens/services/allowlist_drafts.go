package services

import "github.com/skytui/skytui/kit"

// allowDraft is what was typed in a service's allow list: the entry to
// add (n) and the address to check (i), kept through esc and while the
// allow list is closed, as the create form keeps its draft.
type allowDraft struct{ add, check string }

// allowDrafts are the allow lists' drafts by service ID. The Services
// screen holds them, so an allow list opened again brings back what was
// typed in it; each list has its own.
type allowDrafts struct{ by map[string]*allowDraft }

// of is the draft of the service id (an empty one the first time; one of
// its own when there are no drafts to keep it in).
func (d *allowDrafts) of(id string) *allowDraft {
	if d == nil {
		return &allowDraft{}
	}
	if d.by == nil {
		d.by = map[string]*allowDraft{}
	}
	if d.by[id] == nil {
		d.by[id] = &allowDraft{}
	}
	return d.by[id]
}

// done forgets what was typed to add to a service's allow list once the
// add is carried out, whether its allow list is still open or not.
func (d *allowDrafts) done(msg kit.ActionDoneMsg, tag allowTag) {
	if tag.add && msg.Err == nil {
		d.of(tag.serviceID).add = ""
	}
}
