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
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
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
	// Unreadable says why the answer of a change the server accepted (2xx)
	// could not be read ("": it was read).
	Unreadable string
	// NotSent: the step refused before it sent its change (a last look
	// found it no longer applies); Problem says why.
	NotSent bool
}

// AnswerUnreadable implements api.AnswerUnreadableError: a step whose
// change was accepted with an answer nobody could read.
func (o Outcome) AnswerUnreadable() string { return o.Unreadable }

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
			// the start's last outcome (error 1045 without the grant) no
			// longer holds
			delete(w.Results, StepStart)
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
	delete(w.Results, StepStart)
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
// start of the backup chosen (only when it has both). It reports the
// method now used.
func (w *Wizard) ToggleMethod(now time.Time) (string, error) {
	p := &w.Progress
	if err := methodsOf(p.GTID != "", p.BinlogFile != ""); err != nil {
		return p.Method, err
	}
	p.Method = otherMethod(p.Method)
	if p.HasPassed(StepChange) {
		w.invalidate(StepChange)
		p.GrantRunBy, w.Grant = "", ""
	}
	if r, ok := w.Results[StepBackup]; ok && p.HasPassed(StepBackup) {
		// the backup's step says where replication starts: now the other
		r.Summary = "backup " + api.ShortKey(p.BackupKey) + " taken " + Ago(now.Sub(p.BackupTime)) + " ago, " + w.PositionText()
		w.Results[StepBackup] = r
	}
	w.touch(now)
	return p.Method, nil
}

// ToggleMethodFor switches the start method backup key is to be used with,
// before it is chosen (step 2, the backup under the cursor): the choice
// keeps it. The backup chosen already is switched as ToggleMethod does.
func (w *Wizard) ToggleMethodFor(key string, now time.Time) (string, error) {
	p := &w.Progress
	if p.BackupKey == key && p.HasPassed(StepBackup) {
		return w.ToggleMethod(now)
	}
	i := slices.IndexFunc(w.Backups, func(c BackupChoice) bool { return c.Backup.Key == key })
	if i < 0 {
		return p.Method, fmt.Errorf("backup %s is not in the primary's listing", api.ShortKey(key))
	}
	c := &w.Backups[i]
	if err := methodsOf(c.Backup.BinlogGTIDPosition != "", c.HasBinlog()); err != nil {
		return p.Method, err
	}
	p.Method = otherMethod(p.Method)
	w.touch(now)
	return p.Method, nil
}

// methodsOf says why a backup with (or without) a GTID position and a
// binlog file and position offers one start method only; nil: both.
func methodsOf(gtid, binlog bool) error {
	switch {
	case !gtid:
		return errors.New("the backup has no GTID position: only its binlog file and position can be used")
	case !binlog:
		return errors.New("the backup has no binlog file and position: only its GTID can be used")
	}
	return nil
}

// otherMethod is the start method that is not m (GTID when m is unset).
func otherMethod(m string) string {
	if m == MethodBinlog {
		return MethodGTID
	}
	return MethodBinlog
}

// positionText is where replication starts, in words.
func (w *Wizard) PositionText() string {
	p := &w.Progress
	if p.Method == MethodBinlog {
		return fmt.Sprintf("binlog %s position %d", p.BinlogFile, p.BinlogPos)
	}
	return "GTID " + p.GTID
}
