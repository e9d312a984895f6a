// Package replsetup is the replication setup of the Replication screen and
// the command line: a plain state machine (Wizard, whose Progress is what
// survives a restart, kept by Store), the rules of each step (ValidatePair,
// EvaluateBackup, Diagnose) and the I/O of each step (Engine, one method per
// step, over the HTTP API and the SQL procedures). It imports no terminal
// package, which the build checks: the screen runs the Engine's methods in
// tea.Cmds (the mutating ones inside kit.Do actions) and feeds the Outcomes
// back to Wizard.Apply in Update; the tests drive the same methods directly.
package replsetup

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/netip"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/skytui/skytui/api"
)

// BinlogRetention is how long a primary keeps its binary logs (the
// interface document's default): an older backup's position is gone.
const BinlogRetention = 4 * 24 * time.Hour

// Step is one step of the setup.
type Step int

// The steps, in order. StepPair is the choice of the two services; the
// numbered steps 1–6 are the issue's.
const (
	StepPair Step = iota
	StepAllowList
	StepBackup
	StepRestore
	StepChange
	StepGrant
	StepStart
	StepDone
)

var stepNames = [...]string{"pair", "allow_list", "backup", "restore", "change_primary", "grant", "start", "done"}

var stepTitles = [...]string{
	"Pair",
	"Allow list",
	"Backup",
	"Restore",
	"Change primary",
	"Grant",
	"Start",
	"Done",
}

func (s Step) String() string {
	if s < 0 || int(s) >= len(stepNames) {
		return "step" + strconv.Itoa(int(s))
	}
	return stepNames[s]
}

// Title is the step's short label.
func (s Step) Title() string {
	if s < 0 || int(s) >= len(stepTitles) {
		return s.String()
	}
	return stepTitles[s]
}

// MarshalText writes the step's name.
func (s Step) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a step's name.
func (s *Step) UnmarshalText(b []byte) error {
	for i, n := range stepNames {
		if n == string(b) {
			*s = Step(i)
			return nil
		}
	}
	return fmt.Errorf("unknown step %q", b)
}

// stepSet is a set of steps; a value (not a slice) so a copied Progress
// never shares memory with the one the screen keeps changing.
type stepSet uint16

func (s stepSet) has(x Step) bool { return s&(1<<uint(x)) != 0 }
func (s *stepSet) add(x Step)     { *s |= 1 << uint(x) }
func (s *stepSet) remove(x Step)  { *s &^= 1 << uint(x) }
func (s *stepSet) removeFrom(x Step) { // x and every later step
	for st := x; st <= StepDone; st++ {
		s.remove(st)
	}
}

// MarshalJSON lists the steps by name.
func (s stepSet) MarshalJSON() ([]byte, error) {
	names := []string{}
	for st := StepPair; st <= StepDone; st++ {
		if s.has(st) {
			names = append(names, st.String())
		}
	}
	return json.Marshal(names)
}

// UnmarshalJSON reads the list of names; unknown names are ignored.
func (s *stepSet) UnmarshalJSON(b []byte) error {
	var names []string
	if err := json.Unmarshal(b, &names); err != nil {
		return err
	}
	*s = 0
	for _, n := range names {
		var st Step
		if st.UnmarshalText([]byte(n)) == nil {
			s.add(st)
		}
	}
	return nil
}

// Replication start methods.
const (
	MethodGTID   = "gtid"   // change_external_primary_gtid from the backup's GTID
	MethodBinlog = "binlog" // change_external_primary from its binlog file and position
)

// Grant runners.
const (
	GrantBySkytui = "skytui" // run on the primary by the wizard
	GrantByUser   = "user"   // the user ran it and said so
)

// Progress is the wizard's state that is saved (in the user state
// directory) and resumed: IDs, names, positions and which steps passed.
// It never holds a secret: no credentials, and not the grant (it carries
// the replication password).
type Progress struct {
	PrimaryID     string    `json:"primary_id"`
	PrimaryName   string    `json:"primary_name,omitempty"`
	SecondaryID   string    `json:"secondary_id"`
	SecondaryName string    `json:"secondary_name,omitempty"`
	Provider      string    `json:"provider,omitempty"`
	BackupKey     string    `json:"backup_key,omitempty"`
	BackupTime    time.Time `json:"backup_time,omitzero"`
	GTID          string    `json:"gtid,omitempty"`
	BinlogFile    string    `json:"binlog_file,omitempty"`
	BinlogPos     int64     `json:"binlog_position,omitempty"`
	Method        string    `json:"method,omitempty"`
	RestoreID     int64     `json:"restore_id,omitempty"`
	GrantRunBy    string    `json:"grant_run_by,omitempty"`
	Step          Step      `json:"step"`
	Passed        stepSet   `json:"passed"`
	StartedAt     time.Time `json:"started_at,omitzero"`
	UpdatedAt     time.Time `json:"updated_at,omitzero"`
}

// HasPassed reports whether step s passed.
func (p *Progress) HasPassed(s Step) bool { return p.Passed.has(s) }

// PairText is "primary -> secondary" by name.
func (p *Progress) PairText(arrow string) string {
	return api.OrID(p.PrimaryName, p.PrimaryID) + " " + arrow + " " + api.OrID(p.SecondaryName, p.SecondaryID)
}

// Verdict is how a step ended.
type Verdict int

// Verdicts.
const (
	Unchecked Verdict = iota
	Pass
	Fail
	Waiting // an operation runs (a restore, a service becoming ready)
)

func (v Verdict) String() string {
	return [...]string{"", "PASS", "FAIL", "WAIT"}[v]
}

// Outcome is what a step's check or run found. Only Apply turns it into
// state; the Engine's methods never change anything they are given.
type Outcome struct {
	Step    Step
	Verdict Verdict
	// Summary says what was found or done; Problem why it failed; Fix what
	// to do about it.
	Summary, Problem, Fix string
	// Err is the underlying error (an *api.Error keeps status, message and
	// trace ID; an *api.SQLError the MySQL error number).
	Err error

	Primary, Secondary *api.Service
	Missing            []string       // outbound IPs not in the allow list
	Backups            []BackupChoice // the primary's backups, newest first
	Hidden             int            // incremental / binlog backups not listed
	Backup             *BackupChoice  // the default or chosen backup
	Restore            *api.Restore
	// Grant is the statement to run on the primary, verbatim. It lives in
	// memory only.
	Grant  string
	Status *api.ReplicationStatus
	// Call is the SQL statement the step ran, for the record.
	Call string
}

// Wizard is the setup's state machine.
type Wizard struct {
	Progress Progress
	// Results are the last outcomes per step (memory only).
	Results map[Step]Outcome
	// Grant is the statement returned by the change procedure (memory
	// only: it carries the replication password).
	Grant   string
	Backups []BackupChoice
	Hidden  int
}

// NewWizard starts a setup.
func NewWizard(now time.Time) *Wizard {
	return &Wizard{Progress: Progress{Method: MethodGTID, StartedAt: now, UpdatedAt: now}, Results: map[Step]Outcome{}}
}

// Resume continues a saved setup.
func Resume(p Progress) *Wizard {
	if p.Method == "" {
		p.Method = MethodGTID
	}
	return &Wizard{Progress: p, Results: map[Step]Outcome{}}
}

// Current is the step the wizard is at.
func (w *Wizard) Current() Step { return w.Progress.Step }

// Result is the last outcome of step s (Unchecked when none).
func (w *Wizard) Result(s Step) Outcome {
	if o, ok := w.Results[s]; ok {
		return o
	}
	return Outcome{Step: s}
}

// Verdict is the state of step s as shown: the last outcome, else PASS
// for a step that passed before a restart.
func (w *Wizard) Verdict(s Step) Verdict {
	if o, ok := w.Results[s]; ok && o.Verdict != Unchecked {
		return o.Verdict
	}
	if w.Progress.HasPassed(s) {
		return Pass
	}
	return Unchecked
}

func (w *Wizard) touch(now time.Time) {
	if !now.IsZero() {
		w.Progress.UpdatedAt = now
	}
}

// invalidate forgets that steps from s on passed (what they did no longer
// holds: a new backup, a new restore, a new replication password).
func (w *Wizard) invalidate(from Step) {
	w.Progress.Passed.removeFrom(from)
	for st := from; st <= StepDone; st++ {
		delete(w.Results, st)
	}
	if w.Progress.Step > from {
		w.Progress.Step = from
	}
}

// GoTo moves to step s when it passed already or is the current one (a
// step is re-done, not skipped).
func (w *Wizard) GoTo(s Step) bool {
	if s < StepPair || s > StepStart {
		return false
	}
	if s <= w.Progress.Step || w.Progress.HasPassed(s-1) || s == StepPair {
		w.Progress.Step = s
		return true
	}
	return false
}

// Apply records an outcome: a passing step is marked passed and, where no
// choice is left to the user, the wizard moves to the next step. It
// reports whether the current step changed.
func (w *Wizard) Apply(o Outcome, now time.Time) bool {
	if w.Results == nil {
		w.Results = map[Step]Outcome{}
	}
	before := w.Progress.Step
	p := &w.Progress
	w.touch(now)
	switch o.Step {
	case StepPair:
		w.Results[StepPair] = o
		if o.Verdict != Pass || o.Primary == nil || o.Secondary == nil {
			return false
		}
		if p.PrimaryID != o.Primary.ID || p.SecondaryID != o.Secondary.ID {
			w.invalidate(StepAllowList)
			p.BackupKey, p.GTID, p.BinlogFile, p.BinlogPos, p.BackupTime = "", "", "", 0, time.Time{}
			p.RestoreID, p.GrantRunBy = 0, ""
			w.Grant, w.Backups = "", nil
			w.Results[StepPair] = o
		}
		p.PrimaryID, p.PrimaryName = o.Primary.ID, o.Primary.Name
		p.SecondaryID, p.SecondaryName = o.Secondary.ID, o.Secondary.Name
		p.Provider = o.Primary.Provider
		p.Passed.add(StepPair)
		if p.Step == StepPair {
			p.Step = StepAllowList
		}
	case StepAllowList:
		w.Results[o.Step] = o
		if o.Verdict == Pass {
			p.Passed.add(StepAllowList)
			if p.Step == StepAllowList {
				p.Step = StepBackup
			}
		} else if o.Verdict == Fail {
			p.Passed.remove(StepAllowList)
		}
	case StepBackup:
		// the listing: the user chooses (ChooseBackup)
		w.Results[o.Step] = o
		if o.Backups != nil || o.Verdict != Fail {
			w.Backups, w.Hidden = o.Backups, o.Hidden
		}
	case StepRestore:
		w.Results[o.Step] = o
		if o.Restore != nil && int64(o.Restore.ID) > 0 && int64(o.Restore.ID) != p.RestoreID {
			// a new restore: whatever was configured on the secondary is erased
			p.RestoreID = int64(o.Restore.ID)
			w.invalidate(StepChange)
			p.Passed.remove(StepRestore)
			p.Step = StepRestore
			p.GrantRunBy, w.Grant = "", ""
		}
		switch o.Verdict {
		case Pass:
			p.Passed.add(StepRestore)
			if p.Step == StepRestore {
				p.Step = StepChange
			}
		case Fail:
			p.Passed.remove(StepRestore)
		}
	case StepChange:
		w.Results[o.Step] = o
		if o.Verdict == Pass && o.Grant != "" {
			// a new replication user and password: the old grant is void
			w.invalidate(StepGrant)
			w.Grant = o.Grant
			p.GrantRunBy = ""
			p.Passed.add(StepChange)
			p.Step = StepGrant
		}
	case StepGrant:
		if o.Grant != "" {
			w.Grant = o.Grant
		}
		if o.Verdict == Unchecked && o.Grant != "" {
			// the grant fetched again after a restart: nothing was checked
			return false
		}
		w.Results[o.Step] = o
		if o.Verdict == Pass {
			p.Passed.add(StepGrant)
			if p.GrantRunBy == "" {
				p.GrantRunBy = GrantBySkytui
			}
			if p.Step == StepGrant {
				p.Step = StepStart
			}
		}
	case StepStart:
		w.Results[o.Step] = o
		if o.Verdict == Pass || o.Verdict == Waiting {
			p.Passed.add(StepStart)
			p.Step = StepDone
		}
	}
	return p.Step != before
}

// GrantRanByUser records that the user ran the grant on the primary
// themselves.
func (w *Wizard) GrantRanByUser(now time.Time) {
	w.touch(now)
	w.Progress.GrantRunBy = GrantByUser
	w.Progress.Passed.add(StepGrant)
	if w.Results == nil {
		w.Results = map[Step]Outcome{}
	}
	w.Results[StepGrant] = Outcome{Step: StepGrant, Verdict: Pass,
		Summary: "you ran the grant on " + api.OrID(w.Progress.PrimaryName, w.Progress.PrimaryID) + " yourself"}
	if w.Progress.Step == StepGrant {
		w.Progress.Step = StepStart
	}
}

// ChooseBackup takes backup key as the start of replication: a usable
// backup passes step 2; a refused one says why.
func (w *Wizard) ChooseBackup(key string, now time.Time) error {
	var c *BackupChoice
	for i := range w.Backups {
		if w.Backups[i].Backup.Key == key {
			c = &w.Backups[i]
		}
	}
	if c == nil {
		return fmt.Errorf("backup %s is not in the primary's listing", api.ShortKey(key))
	}
	if !c.Usable {
		return errors.New(c.Reason)
	}
	w.touch(now)
	p := &w.Progress
	if p.BackupKey != c.Backup.Key {
		w.invalidate(StepRestore)
		p.RestoreID, p.GrantRunBy, w.Grant = 0, "", ""
	}
	p.BackupKey = c.Backup.Key
	p.BackupTime = c.Time
	p.GTID = c.Backup.BinlogGTIDPosition
	p.BinlogFile = c.Backup.BinlogFile
	p.BinlogPos = c.BinlogPos
	switch {
	case p.GTID == "":
		p.Method = MethodBinlog
	case p.Method == MethodBinlog && !c.HasBinlog():
		p.Method = MethodGTID
	case p.Method == "":
		p.Method = MethodGTID
	}
	p.Passed.add(StepBackup)
	w.Results[StepBackup] = Outcome{Step: StepBackup, Verdict: Pass, Backups: w.Backups, Hidden: w.Hidden,
		Summary: "backup " + api.ShortKey(c.Backup.Key) + " taken " + Ago(now.Sub(c.Time)) + " ago, " + w.PositionText()}
	if p.Step == StepBackup {
		p.Step = StepRestore
	}
	return nil
}

// ToggleMethod switches between the GTID and the binlog file / position
// start (only when the backup has both). It reports the method now used.
func (w *Wizard) ToggleMethod(now time.Time) (string, error) {
	p := &w.Progress
	if p.GTID == "" || p.BinlogFile == "" {
		if p.GTID == "" {
			return p.Method, errors.New("the backup has no GTID position: only its binlog file and position can be used")
		}
		return p.Method, errors.New("the backup has no binlog file and position: only its GTID can be used")
	}
	if p.Method == MethodBinlog {
		p.Method = MethodGTID
	} else {
		p.Method = MethodBinlog
	}
	if p.HasPassed(StepChange) {
		w.invalidate(StepChange)
		p.GrantRunBy, w.Grant = "", ""
	}
	w.touch(now)
	return p.Method, nil
}

// positionText is where replication starts, in words.
func (w *Wizard) PositionText() string {
	p := &w.Progress
	if p.Method == MethodBinlog {
		return fmt.Sprintf("binlog %s position %d", p.BinlogFile, p.BinlogPos)
	}
	return "GTID " + p.GTID
}

// ---- rules ----

// ValidatePair applies the pair's rules: two different services, both
// ready, on the same cloud provider (a backup restores only within one).
func ValidatePair(primary, secondary *api.Service) error {
	if primary == nil || secondary == nil {
		return errors.New("choose a primary and a secondary")
	}
	if primary.ID == secondary.ID {
		return fmt.Errorf("%s cannot replicate from itself: choose two different services", SvcName(primary))
	}
	for _, x := range []struct {
		role string
		s    *api.Service
	}{{"primary", primary}, {"secondary", secondary}} {
		if !x.s.Ready() {
			st := x.s.Status
			if st == "" {
				st = "unknown"
			}
			return fmt.Errorf("the %s %s is %s: both services must be ready", x.role, SvcName(x.s), st)
		}
		if x.s.FQDN == "" || x.s.ReadWritePort() == 0 {
			return fmt.Errorf("the %s %s has no fqdn or readwrite port yet", x.role, SvcName(x.s))
		}
	}
	if !strings.EqualFold(primary.Provider, secondary.Provider) {
		return fmt.Errorf("%s runs on %s and %s on %s: a backup can be restored only within the same cloud provider, so both must be on the same provider",
			SvcName(primary), api.OrID(primary.Provider, "?"), SvcName(secondary), api.OrID(secondary.Provider, "?"))
	}
	return nil
}

func SvcName(s *api.Service) string {
	if s == nil {
		return "?"
	}
	return api.OrID(s.Name, s.ID)
}

// AllowedBy returns the allow-list entry that admits ip, or "".
func AllowedBy(ip string, list []api.AllowListEntry) string {
	a, err := netip.ParseAddr(strings.TrimSpace(ip))
	if err != nil {
		if p, perr := netip.ParsePrefix(strings.TrimSpace(ip)); perr == nil {
			a = p.Addr()
		} else {
			return ""
		}
	}
	for _, e := range list {
		p, err := netip.ParsePrefix(api.NormalizeAllowListIP(e.IP))
		if err == nil && p.Contains(a) {
			return e.IP
		}
	}
	return ""
}

// MissingFromAllowList lists the outbound IPs no allow-list entry admits.
func MissingFromAllowList(outbound []string, list []api.AllowListEntry) []string {
	var out []string
	for _, ip := range outbound {
		if AllowedBy(ip, list) == "" {
			out = append(out, ip)
		}
	}
	return out
}

// BackupChoice is a backup of the primary with the wizard's verdict.
type BackupChoice struct {
	Backup    api.Backup
	Time      time.Time // when it was taken (its start)
	Usable    bool
	Reason    string // why not, when not usable
	Note      string // a warning for a usable one (close to the retention)
	BinlogPos int64
}

// HasGTID reports a GTID position.
func (c *BackupChoice) HasGTID() bool { return c.Backup.BinlogGTIDPosition != "" }

// HasBinlog reports a binlog file and position.
func (c *BackupChoice) HasBinlog() bool { return c.Backup.BinlogFile != "" && c.BinlogPos > 0 }

// fullCopy reports backup types that hold the whole database (an
// incremental or binlog backup cannot seed a replica on its own).
func fullCopy(typ string) bool {
	switch strings.ToLower(typ) {
	case api.BackupIncremental, api.BackupBinarylog:
		return false
	}
	return true
}

// EvaluateBackup decides whether backup b of primary can start
// replication at now.
func EvaluateBackup(b api.Backup, primary *api.Service, now time.Time) BackupChoice {
	c := BackupChoice{Backup: b, Time: b.StartTime.Time}
	if c.Time.IsZero() {
		c.Time = b.EndTime.Time
	}
	if n, err := strconv.ParseInt(strings.TrimSpace(string(b.BinlogPosition)), 10, 64); err == nil {
		c.BinlogPos = n
	}
	age := now.Sub(c.Time)
	switch st := api.BackupState(b.Status); {
	case st == api.BackupInProgress:
		c.Reason = "still running: only a completed backup can be restored"
	case st == api.BackupFailed:
		c.Reason = "the backup failed (" + b.Status + ")"
	case st != api.BackupCompleted:
		c.Reason = "status " + api.OrID(b.Status, "unknown") + ": only a completed backup can be restored"
	case b.IsExternalStorage || b.Bucket != "":
		c.Reason = "in your own bucket: the wizard restores from managed storage"
	case primary != nil && b.CloudProvider != "" && primary.Provider != "" && !strings.EqualFold(b.CloudProvider, primary.Provider):
		c.Reason = "taken on " + b.CloudProvider + ": a restore stays within one cloud provider"
	case !c.HasGTID() && !c.HasBinlog():
		c.Reason = "no GTID position (and no binlog file and position) to start replication from"
	case c.Time.IsZero():
		c.Reason = "no time: the 4-day binlog retention cannot be checked"
	case age > BinlogRetention:
		c.Reason = "taken " + Ago(age) + " ago: older than the 4-day binlog retention (the primary no longer has the binary logs from its position)"
	default:
		c.Usable = true
		if left := BinlogRetention - age; left < 24*time.Hour {
			c.Note = "the primary purges its position in " + Ago(left) + ": finish the setup before"
		}
	}
	return c
}

// ChooseDefault is the newest usable backup (GTID preferred), or nil.
func ChooseDefault(list []BackupChoice) *BackupChoice {
	for i := range list {
		if list[i].Usable && list[i].HasGTID() {
			return &list[i]
		}
	}
	for i := range list {
		if list[i].Usable {
			return &list[i]
		}
	}
	return nil
}

// Diagnosis explains a replication status: the problem and its fix, and
// the step that fixes it (0 when none).
type Diagnosis struct {
	OK      bool
	Waiting bool
	Problem string
	Fix     string
	Step    Step
}

// Diagnose reads a replica status the way a DBA would.
func Diagnose(s *api.ReplicationStatus) Diagnosis {
	if s == nil {
		return Diagnosis{Problem: "no status yet"}
	}
	if !s.Configured {
		return Diagnosis{Problem: "replication is not configured on the secondary (a restore erases it)",
			Fix: "point it at the primary again: run the setup from step 4", Step: StepChange}
	}
	io, sqlT := strings.ToLower(s.IORunning), strings.ToLower(s.SQLRunning)
	switch s.LastIOErrno {
	case 0:
	case api.ErAccessDenied:
		return Diagnosis{Problem: fmt.Sprintf("the primary refused the replication user (error %d)", s.LastIOErrno),
			Fix: "run the grant on the primary (step 5)", Step: StepGrant}
	case 2003:
		return Diagnosis{Problem: fmt.Sprintf("the secondary cannot reach the primary (error %d)", s.LastIOErrno),
			Fix: "add the secondary's outbound IP to the primary's allow list (step 1)", Step: StepAllowList}
	case 2005:
		return Diagnosis{Problem: fmt.Sprintf("the primary's host name does not resolve (error %d)", s.LastIOErrno),
			Fix: "check the primary still exists, then point the secondary at it again (step 4)", Step: StepChange}
	case 1236:
		return Diagnosis{Problem: "the primary no longer has the binary logs from the start position (error 1236)",
			Fix: "take a new backup of the primary and set up again from step 2 (a backup younger than 4 days)", Step: StepBackup}
	default:
		if io != "yes" {
			return Diagnosis{Problem: fmt.Sprintf("IO thread error %d", s.LastIOErrno),
				Fix: "read the error below; stop and start replication once it is fixed"}
		}
	}
	if s.LastSQLErrno != 0 && sqlT != "yes" {
		return Diagnosis{Problem: fmt.Sprintf("the SQL thread stopped on error %d", s.LastSQLErrno),
			Fix: "fix the data on the secondary (or set up again from a new backup), then start replication (S)"}
	}
	switch {
	case io == "yes" && sqlT == "yes":
		return Diagnosis{OK: true}
	case io == "connecting" || io == "preparing":
		return Diagnosis{Waiting: true, Problem: "the IO thread is " + io + " (connecting to the primary)"}
	case io == "no" && sqlT == "no":
		return Diagnosis{Problem: "replication is stopped", Fix: "start it (S)"}
	}
	return Diagnosis{Problem: "IO thread " + api.OrID(s.IORunning, "?") + ", SQL thread " + api.OrID(s.SQLRunning, "?"),
		Fix: "stop and start replication (s, then S)"}
}

// ---- the engine: the I/O of each step ----

// Engine runs the steps' calls: the HTTP API through Client and the sky
// procedures over SQL. Its methods change nothing they are given and are
// safe to run in tea.Cmds.
type Engine struct {
	Client *api.Client
	Now    func() time.Time
	// Open connects to a service (default api.OpenSQL).
	Open func(api.SQLTarget) (*api.SQLClient, error)
	// SQLTimeout bounds dialling and each statement (default 10 s).
	SQLTimeout time.Duration
}

func (e *Engine) now() time.Time {
	if e.Now == nil {
		return time.Now()
	}
	return e.Now()
}

func (e *Engine) client() (*api.Client, error) {
	if e.Client == nil {
		return nil, errors.New("no API client")
	}
	return e.Client, nil
}

// target is how to connect to a service with the given credentials: its
// fqdn and readwrite port, TLS when the service has SSL on.
func (e *Engine) target(s *api.Service, c *api.Credentials) api.SQLTarget {
	return api.SQLTarget{Host: s.FQDN, Port: s.ReadWritePort(), User: c.Username, Password: c.Password,
		TLS: s.SSLEnabled, Timeout: e.SQLTimeout}
}

func (e *Engine) open(s *api.Service, c *api.Credentials) (*api.SQLClient, error) {
	open := e.Open
	if open == nil {
		open = api.OpenSQL
	}
	return open(e.target(s, c))
}

// connect opens an SQL connection to a service with its current default
// credentials.
func (e *Engine) connect(ctx context.Context, s *api.Service) (*api.SQLClient, error) {
	cl, err := e.client()
	if err != nil {
		return nil, err
	}
	creds, err := cl.GetCredentials(ctx, s.ID)
	if err != nil {
		return nil, err
	}
	return e.open(s, creds)
}

func (e *Engine) services(ctx context.Context, ids ...string) ([]*api.Service, error) {
	cl, err := e.client()
	if err != nil {
		return nil, err
	}
	out := make([]*api.Service, len(ids))
	for i, id := range ids {
		s, err := cl.GetService(ctx, id)
		if err != nil {
			return nil, err
		}
		out[i] = s
	}
	return out, nil
}

func fail(step Step, err error, problem, fix string) Outcome {
	if problem == "" && err != nil {
		problem = err.Error()
	}
	return Outcome{Step: step, Verdict: Fail, Err: err, Problem: problem, Fix: fix}
}

// apiFix explains an HTTP error of the API.
func apiFix(err error) string {
	switch {
	case api.IsUnauthorized(err):
		return "the API key was refused: :login to enter a valid one"
	case api.IsNotFound(err):
		return "it no longer exists: check the Services screen"
	case api.IsConflict(err):
		return "the service is busy (a pending state): wait until it is ready, then try again"
	case api.IsRateLimited(err):
		return "too many requests: wait a moment, then try again"
	}
	return "try again (c); if it persists, quote the trace ID to support"
}

// retryWizard is how to try a wizard step again.
const retryWizard = "try again (c)"

// SQLFix explains an SQL error on a service (role: primary or secondary).
func SQLFix(err error, role, name string, step Step) (problem, fix string) {
	return SQLFixRetry(err, role, name, step, retryWizard)
}

// notReadyError is a service that cannot answer SQL yet.
type notReadyError struct{ name, status string }

func (e *notReadyError) Error() string {
	return e.name + " is " + e.status + ": its status can be read once it is ready"
}

// SQLFixRetry is SQLFix with the words for trying again.
func SQLFixRetry(err error, role, name string, step Step, retry string) (problem, fix string) {
	var nr *notReadyError
	if errors.As(err, &nr) {
		return err.Error(), "wait until it is ready (a restore or a change is running); " + retry
	}
	var se *api.SQLError
	if !errors.As(err, &se) {
		if api.StatusOf(err) != 0 {
			return err.Error(), apiFix(err)
		}
		return err.Error(), retry
	}
	switch se.Code {
	case api.ErAccessDenied, api.ErDBAccessDenied, api.ErProcAccessDenied:
		if role == "secondary" && step >= StepChange {
			return se.Error(), "the " + role + " " + name + " refused its default credentials; after the restore they are the primary's: " + retry + ", which fetches them again"
		}
		return se.Error(), "the " + role + " " + name + " refused its default credentials: check them on the Services screen (c)"
	case api.ErSPDoesNotExist, api.ErBadDB:
		return se.Error(), name + " has no sky replication procedures: replication needs a MariaDB Cloud service"
	case 1200:
		return se.Error(), "replication is not configured on " + name + ": run step 4 first"
	case 1941:
		return se.Error(), "the GTID position is not valid: choose another backup (step 2)"
	}
	if se.Code == 0 {
		return se.Error(), "this machine must reach " + name + ": its address must be in " + name + "'s allow list (Services screen, a)"
	}
	return se.Error(), "read the error; " + retry
}

// CheckPair reads both services and applies the pair's rules.
func (e *Engine) CheckPair(ctx context.Context, primaryID, secondaryID string) Outcome {
	if primaryID == secondaryID {
		return fail(StepPair, nil, "the primary and the secondary are the same service: choose two different services", "choose another secondary")
	}
	svcs, err := e.services(ctx, primaryID, secondaryID)
	if err != nil {
		return fail(StepPair, err, "", apiFix(err))
	}
	p, s := svcs[0], svcs[1]
	o := Outcome{Step: StepPair, Primary: p, Secondary: s}
	if err := ValidatePair(p, s); err != nil {
		o.Verdict, o.Problem, o.Err = Fail, err.Error(), err
		o.Fix = "choose two ready services on the same cloud provider"
		return o
	}
	o.Verdict = Pass
	o.Summary = fmt.Sprintf("%s -> %s, both ready on %s; %s will be erased by the restore (step 3)", SvcName(p), SvcName(s), p.Provider, SvcName(s))
	return o
}

func (e *Engine) pair(ctx context.Context, p Progress) (*api.Service, *api.Service, error) {
	svcs, err := e.services(ctx, p.PrimaryID, p.SecondaryID)
	if err != nil {
		return nil, nil, err
	}
	return svcs[0], svcs[1], nil
}

// CheckAllowList checks that every outbound IP of the secondary is in the
// primary's allow list (CIDR containment).
func (e *Engine) CheckAllowList(ctx context.Context, p Progress) Outcome {
	pri, sec, err := e.pair(ctx, p)
	if err != nil {
		return fail(StepAllowList, err, "", apiFix(err))
	}
	return allowOutcome(pri, sec)
}

func allowOutcome(pri, sec *api.Service) Outcome {
	o := Outcome{Step: StepAllowList, Primary: pri, Secondary: sec}
	if len(sec.OutboundIPs) == 0 {
		o.Verdict = Fail
		o.Problem = SvcName(sec) + " reports no outbound IP, so the allow list cannot be checked"
		o.Fix = "find the secondary's egress address in the cloud console and add it to " + SvcName(pri) + "'s allow list (Services screen, a); then check again (c)"
		return o
	}
	list := pri.AllowList()
	o.Missing = MissingFromAllowList(sec.OutboundIPs, list)
	if len(o.Missing) == 0 {
		var parts []string
		for _, ip := range sec.OutboundIPs {
			parts = append(parts, ip+" in "+AllowedBy(ip, list))
		}
		o.Verdict = Pass
		o.Summary = SvcName(sec) + "'s outbound IP " + strings.Join(parts, ", ") + " of " + SvcName(pri) + "'s allow list"
		return o
	}
	o.Verdict = Fail
	o.Problem = SvcName(sec) + "'s outbound IP " + strings.Join(o.Missing, ", ") + " is not in " + SvcName(pri) + "'s allow list: the secondary could not connect (error 2003)"
	o.Fix = "press enter to add " + strings.Join(HostCIDRs(o.Missing), ", ") + " to " + SvcName(pri) + "'s allow list"
	return o
}

func HostCIDRs(ips []string) []string {
	out := make([]string, len(ips))
	for i, ip := range ips {
		out[i] = api.NormalizeAllowListIP(ip)
	}
	return out
}

// AddAllowList adds the missing outbound IPs to the primary's allow list
// (one POST each; never retried), then checks again. Mutating: run it
// through kit.Do.
func (e *Engine) AddAllowList(ctx context.Context, p Progress, ips []string) Outcome {
	cl, err := e.client()
	if err != nil {
		return fail(StepAllowList, err, "", "")
	}
	for _, ip := range ips {
		if err := api.ValidateAllowListIP(ip); err != nil {
			return fail(StepAllowList, err, "outbound IP "+ip+": "+err.Error(), "add a valid address by hand (Services screen, a)")
		}
		if _, err := cl.AddAllowListEntry(ctx, p.PrimaryID, ip); err != nil {
			return fail(StepAllowList, err, "adding "+api.NormalizeAllowListIP(ip)+" to "+api.OrID(p.PrimaryName, p.PrimaryID)+"'s allow list: "+err.Error(), apiFix(err))
		}
	}
	o := e.CheckAllowList(ctx, p)
	if o.Verdict == Pass {
		o.Summary = "added " + strings.Join(HostCIDRs(ips), ", ") + "; " + o.Summary
	}
	return o
}

// ListBackups lists the primary's backups that hold a whole database,
// newest first, each with its verdict; the newest usable one is the
// default.
func (e *Engine) ListBackups(ctx context.Context, p Progress) Outcome {
	cl, err := e.client()
	if err != nil {
		return fail(StepBackup, err, "", "")
	}
	pri, err := cl.GetService(ctx, p.PrimaryID)
	if err != nil {
		return fail(StepBackup, err, "", apiFix(err))
	}
	list, err := cl.ListBackups(ctx, p.PrimaryID)
	if err != nil {
		return fail(StepBackup, err, "", apiFix(err))
	}
	return backupOutcome(pri, list, e.now())
}

func backupOutcome(pri *api.Service, list []api.Backup, now time.Time) Outcome {
	o := Outcome{Step: StepBackup, Primary: pri, Backups: []BackupChoice{}}
	for _, b := range list {
		if !fullCopy(b.Type) {
			o.Hidden++
			continue
		}
		o.Backups = append(o.Backups, EvaluateBackup(b, pri, now))
	}
	sort.SliceStable(o.Backups, func(i, j int) bool { return o.Backups[i].Time.After(o.Backups[j].Time) })
	o.Backup = ChooseDefault(o.Backups)
	if o.Backup == nil {
		o.Verdict = Fail
		o.Problem = "no backup of " + SvcName(pri) + " can start replication: it needs a completed full backup in managed storage with a GTID position, younger than 4 days"
		o.Fix = "take a full backup of " + SvcName(pri) + " (Backups screen), then check again (c)"
		return o
	}
	o.Verdict = Unchecked // the user chooses
	o.Summary = fmt.Sprintf("%d backups; the newest usable one is selected", len(o.Backups))
	return o
}

// RestoreRequest is the body the restore step sends.
func RestoreRequest(p Progress) api.RestoreRequest {
	return api.ManagedRestore(p.SecondaryID, p.BackupKey)
}

// StartRestore restores the chosen backup into the secondary. It stops
// the secondary, erases its data and gives it the primary's credentials.
// Mutating: run it through kit.Do after the type-to-confirm.
func (e *Engine) StartRestore(ctx context.Context, p Progress) Outcome {
	cl, err := e.client()
	if err != nil {
		return fail(StepRestore, err, "", "")
	}
	if p.BackupKey == "" {
		return fail(StepRestore, nil, "no backup chosen", "choose one (step 2)")
	}
	r, err := cl.CreateRestore(ctx, RestoreRequest(p))
	if api.IsOutcomeUnknown(err) {
		// sent, never answered: it may be running. Never "refused", never
		// an invitation to restore again before the secondary is read.
		found := newestRestoreOf(ctx, cl, p)
		if found == nil {
			return Outcome{Step: StepRestore, Verdict: Waiting, Err: err,
				Summary: fmt.Sprintf("restore into %s: outcome unknown — it was sent and no answer came back; no restore of it is listed on %s yet. Look at the Restores screen (3) before restoring again",
					api.OrID(p.SecondaryName, p.SecondaryID), api.OrID(p.SecondaryName, p.SecondaryID))}
		}
		r, err = found, nil
	}
	if err != nil {
		return fail(StepRestore, err, "the API refused the restore: "+err.Error(), apiFix(err))
	}
	if r.ID <= 0 {
		// Accepted, but the answer named no restore (or could not be
		// read): find it among the secondary's restores. Never a failure.
		if found := newestRestoreOf(ctx, cl, p); found != nil {
			r = found
		} else {
			why := "the answer named no restore"
			if u := r.AnswerUnreadable(); u != "" {
				why = "the answer could not be read: " + u
			}
			return Outcome{Step: StepRestore, Verdict: Waiting,
				Summary: fmt.Sprintf("restore into %s accepted; %s. Follow it on the Restores screen (3)", api.OrID(p.SecondaryName, p.SecondaryID), why)}
		}
	}
	o := restoreOutcome(p, r, e.now())
	o.Restore = r
	if o.Verdict == Waiting {
		o.Summary = fmt.Sprintf("restore %d into %s started; it is followed here until it ends", int64(r.ID), api.OrID(p.SecondaryName, p.SecondaryID))
	}
	return o
}

// newestRestoreOf finds the running restore of the chosen backup into the
// secondary, the newest when there are several; nil when none is listed.
func newestRestoreOf(ctx context.Context, cl *api.Client, p Progress) *api.Restore {
	list, err := cl.ListRestores(ctx, p.SecondaryID)
	if err != nil {
		return nil
	}
	var best *api.Restore
	for i := range list {
		r := &list[i]
		if r.ServiceID != p.SecondaryID || !r.Running() || (r.Key != "" && r.Key != p.BackupKey) {
			continue
		}
		if best == nil || r.ID > best.ID {
			best = r
		}
	}
	return best
}

// CheckRestore reads the restore the wizard started.
func (e *Engine) CheckRestore(ctx context.Context, p Progress) Outcome {
	cl, err := e.client()
	if err != nil {
		return fail(StepRestore, err, "", "")
	}
	if p.RestoreID <= 0 {
		return Outcome{Step: StepRestore}
	}
	r, err := cl.GetRestore(ctx, p.RestoreID)
	if err != nil {
		o := fail(StepRestore, err, fmt.Sprintf("reading restore %d: %s", p.RestoreID, err.Error()), apiFix(err))
		if !api.IsNotFound(err) {
			o.Verdict = Waiting // a failed read is not a failed restore
		}
		return o
	}
	o := restoreOutcome(p, r, e.now())
	o.Restore = r
	return o
}

// CredentialsNote says what a restore does to the secondary's credentials.
func CredentialsNote(p Progress) string {
	return api.OrID(p.SecondaryName, p.SecondaryID) + "'s default username and password are now those of " +
		api.OrID(p.PrimaryName, p.PrimaryID) + " (its old ones no longer work)"
}

func restoreOutcome(p Progress, r *api.Restore, now time.Time) Outcome {
	o := Outcome{Step: StepRestore}
	id := int64(r.ID)
	if id == 0 {
		id = p.RestoreID
	}
	switch {
	case r.Succeeded():
		o.Verdict = Pass
		o.Summary = fmt.Sprintf("restore %d succeeded. %s.", id, CredentialsNote(p))
	case r.Failed():
		o.Verdict = Fail
		o.Problem = fmt.Sprintf("restore %d %s: %s", id, strings.ToLower(r.Status), api.OrID(r.Message, "no message"))
		o.Fix = "read it on the Restores screen; choose another backup (p back to step 2) or restore again (enter)"
	default:
		o.Verdict = Waiting
		el := ""
		if !r.CreatedAt.IsZero() {
			el = ", started " + Ago(now.Sub(r.CreatedAt.Time)) + " ago"
		}
		o.Summary = fmt.Sprintf("restore %d %s: %s%s", id, api.OrID(r.Status, "submitted"), api.OrID(r.Message, "in progress"), el)
	}
	return o
}

// ChangeCall is the statement step 4 runs on the secondary, as text.
func ChangeCall(p Progress, pri *api.Service) string {
	host, port, ssl := "<primary fqdn>", 0, false
	if pri != nil {
		host, port, ssl = pri.FQDN, pri.ReadWritePort(), pri.SSLEnabled
	}
	if p.Method == MethodBinlog {
		return fmt.Sprintf("CALL sky.change_external_primary('%s', %d, '%s', %d, %t)", host, port, p.BinlogFile, p.BinlogPos, ssl)
	}
	return fmt.Sprintf("CALL sky.change_external_primary_gtid('%s', %d, '%s', %t)", host, port, p.GTID, ssl)
}

// ChangePrimary points the secondary at the primary, connecting with the
// secondary's current credentials (the primary's, after the restore), and
// returns the grant to run on the primary. Mutating: run it through kit.Do.
func (e *Engine) ChangePrimary(ctx context.Context, p Progress) Outcome {
	pri, sec, err := e.pair(ctx, p)
	if err != nil {
		return fail(StepChange, err, "", apiFix(err))
	}
	if !sec.Ready() {
		o := fail(StepChange, nil, SvcName(sec)+" is "+sec.Status+": it must be ready", "wait until it is ready (a restore takes a while), then try again")
		o.Verdict = Waiting
		return o
	}
	if err := ValidatePair(pri, sec); err != nil {
		return fail(StepChange, err, "", "")
	}
	call := ChangeCall(p, pri)
	db, err := e.connect(ctx, sec)
	if err != nil {
		prob, fix := SQLFix(err, "secondary", SvcName(sec), StepChange)
		o := fail(StepChange, err, prob, fix)
		o.Call = call
		return o
	}
	defer db.Close()
	var grant string
	if p.Method == MethodBinlog {
		grant, err = db.ChangeExternalPrimary(ctx, pri.FQDN, pri.ReadWritePort(), p.BinlogFile, p.BinlogPos, pri.SSLEnabled)
	} else {
		grant, err = db.ChangeExternalPrimaryGTID(ctx, pri.FQDN, pri.ReadWritePort(), p.GTID, pri.SSLEnabled)
	}
	if err != nil {
		prob, fix := SQLFix(err, "secondary", SvcName(sec), StepChange)
		o := fail(StepChange, err, prob, fix)
		o.Call = call
		return o
	}
	return Outcome{Step: StepChange, Verdict: Pass, Grant: grant, Call: call, Primary: pri, Secondary: sec,
		Summary: SvcName(sec) + " now points at " + SvcName(pri) + "; it returned the grant to run on the primary"}
}

// FetchGrant reads the grant again from the secondary (replication_grants).
func (e *Engine) FetchGrant(ctx context.Context, secondaryID string) (string, error) {
	svcs, err := e.services(ctx, secondaryID)
	if err != nil {
		return "", err
	}
	db, err := e.connect(ctx, svcs[0])
	if err != nil {
		return "", err
	}
	defer db.Close()
	return db.ReplicationGrants(ctx)
}

// FetchGrantStep is FetchGrant as the grant step's outcome (Unchecked:
// nothing was run).
func (e *Engine) FetchGrantStep(ctx context.Context, p Progress) Outcome {
	g, err := e.FetchGrant(ctx, p.SecondaryID)
	if err != nil {
		prob, fix := SQLFix(err, "secondary", api.OrID(p.SecondaryName, p.SecondaryID), StepChange)
		o := fail(StepGrant, err, "reading the grant again: "+prob, fix)
		o.Verdict = Unchecked
		return o
	}
	return Outcome{Step: StepGrant, Grant: g}
}

// RunGrant runs the grant, verbatim, on the primary with the primary's
// credentials. Mutating: run it through kit.Do.
func (e *Engine) RunGrant(ctx context.Context, p Progress, grant string) Outcome {
	if strings.TrimSpace(grant) == "" {
		return fail(StepGrant, nil, "no grant to run", "run step 4 first")
	}
	svcs, err := e.services(ctx, p.PrimaryID)
	if err != nil {
		return fail(StepGrant, err, "", apiFix(err))
	}
	pri := svcs[0]
	db, err := e.connect(ctx, pri)
	if err != nil {
		prob, fix := SQLFix(err, "primary", SvcName(pri), StepGrant)
		return fail(StepGrant, err, prob, fix+"; or copy the grant (y), run it yourself and press m")
	}
	defer db.Close()
	if err := db.RunGrant(ctx, grant); err != nil {
		prob, fix := SQLFix(err, "primary", SvcName(pri), StepGrant)
		return fail(StepGrant, err, prob, fix+"; or copy the grant (y), run it yourself and press m")
	}
	return Outcome{Step: StepGrant, Verdict: Pass, Summary: "the grant ran on " + SvcName(pri) + " as its default user"}
}

// StartReplication starts replication on the secondary (restarting it
// when its IO thread is stuck on an error, so a fixed cause is retried at
// once) and reads the status once. Mutating: run it through kit.Do.
func (e *Engine) StartReplication(ctx context.Context, p Progress) Outcome {
	svcs, err := e.services(ctx, p.SecondaryID)
	if err != nil {
		return fail(StepStart, err, "", apiFix(err))
	}
	sec := svcs[0]
	db, err := e.connect(ctx, sec)
	if err != nil {
		prob, fix := SQLFix(err, "secondary", SvcName(sec), StepStart)
		return fail(StepStart, err, prob, fix)
	}
	defer db.Close()
	if st, err := db.ReplicationStatus(ctx); err == nil && st.Configured && st.LastIOErrno != 0 && !strings.EqualFold(st.IORunning, "No") {
		if _, err := db.StopReplication(ctx); err != nil {
			prob, fix := SQLFix(err, "secondary", SvcName(sec), StepStart)
			return fail(StepStart, err, prob, fix)
		}
	}
	msg, err := db.StartReplication(ctx)
	if err != nil {
		prob, fix := SQLFix(err, "secondary", SvcName(sec), StepStart)
		return fail(StepStart, err, prob, fix)
	}
	st, err := db.ReplicationStatus(ctx)
	if err != nil {
		prob, fix := SQLFix(err, "secondary", SvcName(sec), StepStart)
		o := fail(StepStart, err, "started ("+msg+") but the status could not be read: "+prob, fix)
		o.Verdict = Waiting
		return o
	}
	o := Outcome{Step: StepStart, Status: st, Secondary: sec}
	d := Diagnose(st)
	switch {
	case d.OK:
		o.Verdict = Pass
		o.Summary = "replication runs: IO thread Yes, SQL thread Yes"
	case d.Waiting:
		o.Verdict = Waiting
		o.Summary = api.OrID(msg, "started") + "; " + d.Problem
	default:
		o.Verdict = Fail
		o.Summary = api.OrID(msg, "started")
		o.Problem, o.Fix = d.Problem, d.Fix
		if st.LastIOError != "" {
			o.Problem += ": " + st.LastIOError
		}
	}
	return o
}

// Ago is a duration in the wizard's words: seconds, minutes, hours, then
// days and hours (a 4-day binlog retention is counted in hours).
func Ago(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh", int(d.Hours()))
	}
	h := int(d.Hours())
	return fmt.Sprintf("%dd%02dh", h/24, h%24)
}
