package backupform

import (
	"errors"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/keystore"
	"github.com/skytui/skytui/kit"
)

// The huh form itself: its fields, their dynamic options and the hints
// shown under them as the user types.

func (b *Form) build() {
	c := b.common
	w := b.hintWidth.Bind()
	typ := huh.NewSelect[string]().Title("Backup type").Accessor(b.typ).Height(typeHeight).
		OptionsFunc(b.typeOptions, []any{b.full.Bind(), w}).
		DescriptionFunc(func() string { return b.hint(b.typeHint()) }, []any{b.typ.Bind(), b.full.Bind(), w, b.typeRoom.Bind()})
	when := huh.NewSelect[string]().Title("When").Accessor(b.when).Height(8).
		Description(b.hint(whenDescription)).
		Options(
			huh.NewOption("once: now, one time", WhenOnce),
			huh.NewOption("daily at a time you choose (UTC)", WhenDaily),
			huh.NewOption("every hour (at minute 0)", WhenHourly),
			huh.NewOption("custom cron expression (5 fields, UTC)", WhenCustom),
		)
	// The inputs have no character limit: a full one dropped what was
	// typed without a word (07:30 typed after the prefilled 03:00); what
	// is too long is shown, and the hint says the rule it breaks.
	daily := huh.NewInput().Title("Daily at (HH:MM, 24-hour, UTC)").Accessor(b.daily).
		Placeholder("e.g. 03:00").
		DescriptionFunc(func() string { return b.hint(b.dailyHint(b.daily.Get())) }, []any{b.daily.Bind(), w})
	cron := huh.NewInput().Title(b.hint(cronTitle)).
		Accessor(b.cron).Placeholder("e.g. 30 1 * * 0").
		DescriptionFunc(func() string { return b.hint(b.cronHint(b.cron.Get())) }, []any{b.cron.Bind(), w})
	dest := huh.NewSelect[string]().Title("Destination").Accessor(b.dest).Height(6).
		Description(b.hint(destDescription)).
		Options(
			huh.NewOption("managed storage (the service's default backup storage)", DestManaged),
			huh.NewOption("your own bucket (an s3:// or gs:// path)", DestBucket),
		)
	path := huh.NewInput().Title(b.hint(pathTitle)).
		Accessor(&pathAccessor{b: b}).Placeholder(PathPlaceholder(kit.Or(SchemeOnly(b.opts.Bucket), "s3"))).
		DescriptionFunc(func() string { p, _ := b.bucketHints(); return b.hint(p) },
			[]any{b.path.Bind(), b.typ.Bind(), w, b.scheme.Bind(), b.credsVer.Bind(), b.formRows.Bind()})
	cred := huh.NewSelect[string]().Title("Bucket credentials (stored in the keystore)").Accessor(b.cred).Height(7).
		OptionsFunc(b.credOptions, []any{b.scheme.Bind(), b.credsVer.Bind()}).
		DescriptionFunc(func() string { _, c := b.bucketHints(); return b.hint(c) },
			[]any{b.scheme.Bind(), b.credsVer.Bind(), w, b.path.Bind(), b.typ.Bind(), b.formRows.Bind()})
	// each rule through the type-ahead's gate: shift+tab goes back from a
	// field empty or refused, keeping what was typed (kit.Back)
	typ.Validate(kit.Back(&b.ahead, typ, func(t string) error {
		if err := api.CheckBackupType(b.live(), t); err != nil {
			return err
		}
		if t == api.BackupIncremental {
			if rule := b.incrementalRule(); rule != "" {
				return errors.New(rule)
			}
		}
		return nil
	}))
	daily.Validate(kit.Back(&b.ahead, daily, func(s string) error { _, _, err := api.ParseClock(s); return err }))
	cron.Validate(kit.Back(&b.ahead, cron, api.ValidateSchedule))
	path.Validate(kit.Back(&b.ahead, path, api.ValidateBackupBucketPath))
	cred.Validate(kit.Back(&b.ahead, cred, func(n string) error {
		return keystore.CheckForBucket(b.path.Get(), n, b.credentialKind(n))
	}))

	b.typSel, b.whenSel, b.destSel, b.cronIn, b.pathIn = typ, when, dest, cron, path
	b.fields = map[string]huh.Field{"type": typ, "when": when, "daily": daily, "cron": cron, "destination": dest,
		"bucket path": path, "credentials": cred}
	b.groups = [][]huh.Field{{typ}, {when}, {daily}, {cron}, {dest}, {path, cred}}
	b.ahead = kit.TypeAhead{}
	b.form = kit.NewForm(c,
		huh.NewGroup(typ).Title("Step 1 of 3: type"),
		huh.NewGroup(when).Title("Step 2 of 3: when").
			WithHideFunc(func() bool { return b.opts.Once }),
		huh.NewGroup(daily).Title("Step 2 of 3: when (daily time)").
			WithHideFunc(func() bool { return b.when.Get() != WhenDaily }),
		huh.NewGroup(cron).Title("Step 2 of 3: when (cron expression)").
			WithHideFunc(func() bool { return b.when.Get() != WhenCustom }),
		huh.NewGroup(dest).Title("Step 3 of 3: destination"),
		huh.NewGroup(path, cred).Title("Step 3 of 3: your own bucket").
			WithHideFunc(func() bool { return b.dest.Get() != DestBucket }),
	)
	id := b.id
	b.form.SubmitCmd = func() tea.Msg { return huhDoneMsg{id: id} }
	b.form.CancelCmd = func() tea.Msg { return huhDoneMsg{id: id, cancel: true} }
	if b.width > 0 {
		b.SetSize(b.width, b.height)
	}
}

// The static descriptions of the when and destination fields, and the
// titles that may be wider than a field (SetSize wraps them to the field,
// between words: huh's own wrap broke "day-of-" / "week").
const (
	whenDescription = "Schedules run in UTC, the service's clock; previews show your local time too."
	destDescription = "Managed storage restores within the same cloud provider. Your own bucket is how data leaves the service."
	cronTitle       = "Cron expression: minute hour day-of-month month day-of-week (UTC)"
	pathTitle       = "Bucket path: s3://<bucket>/<path> or gs://<bucket>/<path>"
	// pathTitleShort is pathTitle where it would take two lines (60
	// columns): the bucket step then has a line more for its fields
	pathTitleShort = "Bucket path: s3:// or gs://<bucket>/<path>"
)

// bucketTitle is the bucket path's title: pathTitle where it fits on a
// line at the hints' width, else pathTitleShort.
func (b *Form) bucketTitle() string {
	if w := b.hintWidth.Get(); w > 0 && ansi.StringWidth(pathTitle) > w {
		return pathTitleShort
	}
	return pathTitle
}

// SchemeOnly is the scheme of a bucket path that is only a scheme
// ("s3://" gives "s3"), else "". Such a prefill is shown as a placeholder
// (PathPlaceholder), not held as a value: a whole URL pasted after it
// read "s3://s3://bucket/folder".
func SchemeOnly(path string) string {
	for _, sc := range []string{"s3", "gs"} {
		if strings.TrimSpace(path) == sc+"://" {
			return sc
		}
	}
	return ""
}

// PathPlaceholder is the example a bucket path field shows while empty,
// in the scheme the destination's provider reads.
func PathPlaceholder(scheme string) string { return scheme + "://my-bucket/backups" }

// pathAccessor keeps the scheme of the bucket path beside it, so the
// credential list is re-read only when the scheme changes.
type pathAccessor struct{ b *Form }

func (p *pathAccessor) Get() string { return p.b.path.Get() }
func (p *pathAccessor) Set(s string) {
	p.b.path.Set(s)
	if sc := keystore.SchemeOf(s); sc != p.b.scheme.Get() {
		p.b.scheme.Set(sc)
	}
}

// typeOptions are the types of the profile's interface, each with its
// explanation: the long one where it fits on the option's line at the
// hints' width, else the short one (one line at 60 columns; a wrapped
// option went on under its type's name).
func (b *Form) typeOptions() []huh.Option[string] {
	types := api.BackupTypes
	if b.live() {
		types = api.LiveBackupTypes
	}
	room := b.hintWidth.Get() - 2 - typeColumn // the cursor, the type's name
	out := make([]huh.Option[string], 0, len(types))
	for _, t := range types {
		long, short := typeInfo[t].label, typeInfo[t].shortLabel
		if t == api.BackupIncremental {
			switch b.full.Get() {
			case fullNo:
				long, short = "unavailable: this service has no completed full backup yet", "unavailable: no completed full backup yet"
			case fullUnknown:
				long = "checking whether a full backup exists" + b.common.Theme.Glyphs.Ellipsis
				short = long
			}
		}
		info := long
		if room > 0 && ansi.StringWidth(long) > room {
			info = short
		}
		out = append(out, huh.NewOption(fmt.Sprintf("%-*s %s", typeColumn-1, t, info), t))
	}
	return out
}

// typeColumn is where a type's explanation starts in its option.
const typeColumn = 13

// typeDescription is the selected type's description: what it is, or
// why it cannot be taken.
func (b *Form) typeDescription() string {
	return b.typeDescriptions()[0]
}

// typeDescriptions are the selected type's descriptions, the longest
// first; the last is the shortest that still says what matters ("" when
// the option's own line says enough).
func (b *Form) typeDescriptions() []string {
	t := b.typ.Get()
	if t == api.BackupIncremental {
		if rule := b.incrementalRule(); rule != "" {
			return []string{"! Not available: " + rule + ".", "! Not available: needs a completed full backup first."}
		}
		if b.full.Get() == fullError {
			return []string{typeInfo[t].desc + " (Could not check for one: the API will refuse if there is none.)",
				"! Could not check for a full backup: the API refuses if there is none.", "! Could not check for a full backup."}
		}
	}
	if d := typeInfo[t].shortDesc; d != "" {
		return []string{typeInfo[t].desc, d, ""}
	}
	return []string{typeInfo[t].desc, ""}
}

// typeHint is the longest of the type's descriptions that fits in the
// lines the type field has for it (typeRoom) at the hints' width, so
// every option stays in view under it.
func (b *Form) typeHint() string {
	ds := b.typeDescriptions()
	room, w := b.typeRoom.Get(), b.hintWidth.Get()
	if w <= 0 {
		return ds[0]
	}
	for _, d := range ds {
		if d == "" || strings.Count(kit.Wrap(d, w), "\n")+1 <= room {
			return d
		}
	}
	return ds[len(ds)-1]
}

// hint is a field's description wrapped to the field between words
// (kit.Wrap), so huh's own wrap has nothing left to do: it lets a line
// end one cell past the field at a comma or a period, and the field's
// frame then breaks that line again ("... since the last" / "backup," /
// "for point-in-time recovery.").
func (b *Form) hint(s string) string {
	if w := b.hintWidth.Get(); w > 0 {
		return kit.Wrap(s, w)
	}
	return s
}

func (b *Form) runsPreview(expr string) string {
	lines := api.RunLines(expr, b.common.Time(), 3, nil)
	return "next runs: " + strings.Join(lines, "\n           ")
}

func (b *Form) dailyHint(s string) string {
	expr, err := api.DailyCron(s)
	if err != nil {
		return "! " + err.Error()
	}
	return "ok: " + api.DescribeCron(expr) + " (cron " + expr + ")\n" + b.runsPreview(expr)
}

func (b *Form) cronHint(s string) string {
	expr := strings.Join(strings.Fields(s), " ")
	if expr == "" {
		return "five fields, such as 30 1 * * 0 (Sundays at 01:30 UTC) or 0 */6 * * * (every 6 hours)"
	}
	if err := api.ValidateSchedule(expr); err != nil {
		return "! " + err.Error()
	}
	if expr == "once" {
		return "ok: once, now (as if you had chosen once)"
	}
	desc := api.DescribeCron(expr)
	if desc == "" {
		desc = "custom schedule " + expr
	}
	return "ok: " + desc + "\n" + b.runsPreview(expr)
}

func (b *Form) pathHint(path, typ string) string { return b.pathHints(path, typ)[0] }

// pathHints are the bucket path's hints, the longest first: the short
// one leaves out what the destination step said already (your own bucket
// is how data leaves the service).
func (b *Form) pathHints(path, typ string) []string {
	path = strings.TrimSpace(path)
	// the logical backup's name where the profile offers it: dump on the
	// live service's interface
	logical := api.BackupLogical
	if b.common.Client != nil {
		logical = b.common.Client.LogicalBackupType()
	}
	portable := "A logical backup (SQL statements) is the portable choice for leaving the service"
	if logical != api.BackupLogical {
		portable = "A " + logical + " (the logical backup: SQL statements) is the portable choice for leaving the service"
	}
	switch typ {
	case api.BackupDump:
		portable = "Dump (the logical backup: SQL statements): the portable choice for leaving the service."
	case api.BackupLogical:
		portable = "Logical (SQL statements): the portable choice for leaving the service."
	default:
		portable += "; you chose " + typ + "."
	}
	if path == "" {
		return []string{"Writing to your own bucket is how data leaves the managed service. " + portable, portable}
	}
	if err := api.ValidateBackupBucketPath(path); err != nil {
		return []string{"! " + err.Error()}
	}
	scheme, bucket, folder, _ := api.ParseBucketURI(path)
	return []string{fmt.Sprintf("ok: %s bucket %s, folder %s. %s", scheme, bucket, strings.Trim(folder, "/"), portable)}
}

func (b *Form) credOptions() []huh.Option[string] {
	scheme := b.scheme.Get()
	list, err, loaded := b.credentials()
	switch {
	case !loaded:
		return []huh.Option[string]{huh.NewOption("reading the keystore"+b.common.Theme.Glyphs.Ellipsis, "")}
	case err != nil:
		return []huh.Option[string]{huh.NewOption("! "+err.Error(), "")}
	case scheme == "":
		return []huh.Option[string]{huh.NewOption("(enter an s3:// or gs:// path first)", "")}
	}
	want := keystore.KindForScheme(scheme)
	var out []huh.Option[string]
	for _, c := range list {
		if c.Kind == want {
			out = append(out, huh.NewOption(c.Name+"  ("+keystore.KindLabel(c.Kind)+")", c.Name))
		}
	}
	if len(out) == 0 {
		return []huh.Option[string]{huh.NewOption("(none stored for "+scheme+"://: add one with "+keystore.AddHint(scheme)+")", "")}
	}
	return out
}

func (b *Form) credDescription() string { return b.credDescriptions()[0] }

// credDescriptions are the credential field's descriptions, the longest
// first; the last still says what the bucket's scheme takes (that the
// secret is read only when the request is sent, the review says too).
func (b *Form) credDescriptions() []string {
	scheme := b.scheme.Get()
	_, err, loaded := b.credentials()
	if loaded && err != nil {
		return []string{"Add credentials with " + keystore.AddHint(scheme) + " (in a shell), then reopen this form."}
	}
	switch scheme {
	case "gs":
		return []string{"gs:// takes a GCS service-account key (Storage Admin role). The secret is read from the keystore only when the request is sent.",
			"A GCS service-account key (Storage Admin role), read from the keystore only when the request is sent.",
			"A GCS service-account key (Storage Admin role)."}
	case "s3":
		return []string{"s3:// takes an S3 access key and region. The secret is read from the keystore only when the request is sent.",
			"An S3 access key and region."}
	}
	return []string{"gs:// takes GCS credentials, s3:// S3 credentials."}
}

// bucketHints are the bucket step's path hint and credential description:
// the longest that leave the step whole in the form's height (formRows)
// at the hints' width, the path's kept longest first (its step's title,
// the path's title, hint and input, the line between the fields, the
// credentials' title, description and options). At 60x16 the longest
// put the stored credentials below the form while the path was typed.
// Where none do, the shortest, and the step ends with the line naming
// the field below (kit.FormCut).
func (b *Form) bucketHints() (path, cred string) {
	paths, creds := b.pathHints(b.path.Get(), b.typ.Get()), b.credDescriptions()
	w := b.hintWidth.Get()
	if w <= 0 {
		return paths[0], creds[0]
	}
	lines := func(s string) int { return strings.Count(kit.Wrap(s, w), "\n") + 1 }
	room := b.formRows.Get() - 4 - lines(b.bucketTitle()) - len(b.credOptions())
	for _, p := range paths {
		for _, c := range creds {
			if lines(p)+lines(c) <= room {
				return p, c
			}
		}
	}
	return paths[len(paths)-1], creds[len(creds)-1]
}

// live reports whether the form's profile speaks to the live service's
// backup interface, whose backup types differ from the interface document's.
func (b *Form) live() bool { return b.common.Client != nil && b.common.Client.LiveBackup() }

// namedField is the field a refusal's text names, among those shown with
// the values chosen (a schedule's words go to the daily time or the cron
// expression when one is shown, to "when" otherwise), or "".
func (b *Form) namedField(text string) string {
	t := kit.RefusalWords(text)
	bucket := b.dest.Get() == DestBucket
	switch {
	case strings.Contains(t, "credential") && bucket:
		return "credentials"
	case (strings.Contains(t, "bucket") || strings.Contains(t, "path") || strings.Contains(t, "external_storage")) && bucket:
		return "bucket path"
	case strings.Contains(t, "storage") || strings.Contains(t, "bucket"):
		return "destination"
	case b.opts.Once && (strings.Contains(t, "cron") || strings.Contains(t, "schedule")):
		return "" // a one-off shows no schedule to go back to
	case strings.Contains(t, "cron") || strings.Contains(t, "schedule"):
		switch b.when.Get() {
		case WhenCustom:
			return "cron"
		case WhenDaily:
			return "daily"
		}
		return "when"
	case strings.Contains(t, "type"):
		return "type"
	}
	return ""
}

// editHint is "e to edit" and, when the refusal names a field, which.
func (b *Form) editHint(refusal string) string {
	if f := b.namedField(refusal); f != "" {
		return "e to edit " + f
	}
	return "e to edit"
}
