package restoreform

import (
	"fmt"
	"strings"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/keystore"
	"github.com/skytui/skytui/kit"
)

// The own-bucket step's view: its fields, their hints and the store of a
// new encryption key.

func (b *bucketStep) hint(f bucketField) (string, bool) {
	switch f {
	case fieldBucket:
		v := strings.TrimSpace(b.bucket.Value())
		if v == "" {
			return "gs://NAME/ or s3://NAME/ with the trailing slash; the file goes below", true
		}
		if s, name, path, err := api.ParseBucketURI(v); err == nil && strings.Trim(path, "/") != "" {
			// a file path typed as the bucket: the API's "trailing slash"
			// rule would name a wrong fix (the path with a slash after it)
			bucket := s + "://" + name + "/"
			if fx := b.fixable(); fx != "" {
				return "! external_source.bucket: has a path after the bucket name " + b.common.Theme.Glyphs.Dash + " " + fx, false
			}
			if api.ValidateRestoreBucket(v) != nil {
				return "! external_source.bucket: has a path after the bucket name; the bucket is " + bucket + " alone, the file goes below", false
			}
		}
		if err := api.ValidateRestoreBucket(v); err != nil {
			msg := "! " + err.Error()
			if fx := b.fixable(); fx != "" {
				msg += " " + b.common.Theme.Glyphs.Dash + " " + fx
			}
			return msg, false
		}
		s, name, _, _ := api.ParseBucketURI(v)
		return "ok: " + s + " bucket " + name, true
	case fieldFile:
		v := strings.TrimSpace(b.file.Value())
		switch {
		case v == "":
			return "the path of the backup file inside the bucket (gzip-compressed)", true
		case !strings.HasSuffix(strings.ToLower(v), ".gz"):
			return "! does not end in .gz: the backup file must be gzip-compressed (the API refuses other files)", false
		}
		return "ok: a gzip file", true
	case fieldMethod:
		return "the tool that created the backup", true
	case fieldCred:
		if b.cred == "" {
			return "! " + b.noCredText(), false
		}
		kind := keystore.KindForScheme(b.scheme())
		if kind == "" {
			return "stored credential; its kind must match the bucket (gcs for gs://, s3 for s3://)", true
		}
		return fmt.Sprintf("%d %s credential(s) stored; read and base64-encoded only when sending", len(b.matching()), kind), true
	case fieldEnc:
		return "only if the backup is encrypted", true
	case fieldKey:
		return "masked; dropped from the form when sent", true
	case fieldKeep:
		return "store the key in the keystore (" + b.storeLabel() + ") for the next restore", true
	case fieldKeepName:
		v := strings.TrimSpace(b.keepName.Value())
		if v == "" {
			return "the name the key is kept under", true
		}
		if err := keepNameProblem(v); err != nil {
			return "! " + err.Error(), false
		}
		return "ok: stored as " + v + " on submit, before the restore is sent", true
	}
	return "", true
}

func (b *bucketStep) storeLabel() string {
	if s := b.common.Secrets; s != nil {
		if be := s.Backend(); be != nil {
			return be.Label()
		}
	}
	return "none open"
}

// setSize gives the text inputs the width left of their labels.
func (b *bucketStep) setSize(w int) {
	for _, in := range []*kit.Input{&b.bucket, &b.file, &b.encInput, &b.keepName} {
		in.SetWidth(max(10, w-bucketLabelWidth-8))
	}
}

// bucketLabelWidth is the width of the field labels.
const bucketLabelWidth = 13

func (b *bucketStep) view(r *Wizard, w, h int) string {
	th := b.common.Theme
	const lw = bucketLabelWidth
	var lines []string // the intro, then the fields from fieldsAt
	intro := "Restore " + r.targetName() + " from a gzip backup file in a bucket you own."
	if b.note != "" {
		intro = b.note
	}
	for _, l := range strings.Split(kit.Wrap(intro, max(10, w-2)), "\n") {
		lines = append(lines, " "+th.Muted.Render(l))
	}
	lines = append(lines, "")
	fieldsAt := len(lines)
	// the focused field's line and its hint: lines[focusFrom:focusTo]
	focusFrom, focusTo := 0, 0
	choice := func(opts []string, cur string) string {
		var parts []string
		for _, o := range opts {
			if o == cur {
				parts = append(parts, th.Bold.Render("("+th.Glyphs.Bullet+") "+o))
			} else {
				parts = append(parts, th.Muted.Render("( ) "+o))
			}
		}
		return strings.Join(parts, "  ")
	}
	labels := map[bucketField]string{fieldBucket: "Bucket", fieldFile: "Backup file", fieldMethod: "Method", fieldCred: "Credentials",
		fieldEnc: "Encryption", fieldKey: "Key", fieldKeep: "Keep", fieldKeepName: "Keep as"}
	for _, f := range b.fields() {
		focused := f == b.focus
		label := labels[f]
		lab := "  " + label + strings.Repeat(" ", lw-len(label))
		if focused {
			lab = th.Accent.Render(th.Glyphs.Cursor+" "+label) + strings.Repeat(" ", lw-len(label))
		} else {
			lab = th.Label.Render(lab)
		}
		var val string
		switch f {
		case fieldBucket, fieldFile, fieldKey, fieldKeepName:
			in := map[bucketField]*kit.Input{fieldBucket: &b.bucket, fieldFile: &b.file, fieldKey: &b.encInput, fieldKeepName: &b.keepName}[f]
			val = in.View()
		case fieldMethod:
			val = "  " + choice([]string{api.MethodMariabackup, api.MethodMysqldump}, b.method)
		case fieldCred:
			if b.cred == "" {
				val = "  " + th.Warn.Render("(none)")
			} else {
				kind := ""
				for _, c := range b.creds {
					if c.Name == b.cred {
						kind = " (" + c.Kind + ")"
					}
				}
				val = "  < " + th.Bold.Render(b.cred) + kind + " >"
			}
		case fieldEnc:
			val = "  < " + th.Bold.Render(b.encChoice()) + " >"
		case fieldKeep:
			box := "[ ]"
			if b.keep {
				box = "[x]"
			}
			val = "  " + box + " keep the key in the keystore"
		}
		if focused {
			focusFrom = len(lines)
		}
		lines = append(lines, lab+val)
		if hint, ok := b.hint(f); hint != "" && (focused || !ok) {
			st := th.Muted
			if !ok {
				st = th.Warn
			}
			for _, l := range strings.Split(kit.Wrap(hint, max(10, w-lw-4)), "\n") {
				lines = append(lines, strings.Repeat(" ", lw+2)+st.Render(l))
			}
		}
		if focused {
			focusTo = len(lines)
		}
	}
	closing := []string{""}
	for _, l := range strings.Split(kit.Wrap("enter on the last field continues to the confirmation; nothing is sent before it", max(10, w-2)), "\n") {
		closing = append(closing, " "+th.Muted.Render(l))
	}
	if h <= 0 || len(lines)+len(closing) <= h {
		return strings.Join(append(lines, closing...), "\n")
	}
	return strings.Join(b.window(r, lines, fieldsAt, focusFrom, focusTo, h), "\n")
}

// window is the step's lines (the intro, then the fields from fieldsAt)
// in h lines when they do not all fit: the closing line gives way first,
// then the lines scroll so that the focused field and its hint
// (lines[from:to]) stay in view (a shift+tab that wraps to the last field
// showed the window's top, the focus below it), with a line saying what is
// above and below. Only the field's own line is sure to show when its
// hint is taller than the room.
func (b *bucketStep) window(r *Wizard, lines []string, fieldsAt, from, to, h int) []string {
	if len(lines) <= h {
		return lines
	}
	if h < 3 { // no room for the line saying what is cut
		top := min(from, max(0, to-h))
		return lines[top:min(len(lines), top+h)]
	}
	top := min(from, max(0, to-(h-1)))
	if top > 0 && top < fieldsAt {
		top = min(from, fieldsAt) // the intro goes whole, not half a sentence
	}
	first, rows, _ := kit.TextWindow(len(lines), h, top)
	out := append([]string(nil), lines[first:first+rows]...)
	more := kit.MoreLine(b.common, r.keys.NextField, r.keys.PrevField, first, len(lines)-first-rows)
	return append(out, " "+b.common.Theme.Muted.Render(more))
}
