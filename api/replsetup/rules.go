// The rules of each step, with no I/O: ValidatePair and the allow-list
// checks, EvaluateBackup and ChooseDefault, Diagnose, and Ago.

package replsetup

import (
	"errors"
	"fmt"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/skytui/skytui/api"
)

// PairError is a pair the rules refuse: Role names the service at fault
// ("primary", "secondary"; "" when it is the pair), Short says why in a
// few words (a chooser's column: "not ready", "other provider"), Error
// whole.
type PairError struct {
	Role  string
	Short string
	Long  string
}

func (e *PairError) Error() string { return e.Long }

// Note is the refusal in a chooser's few words, naming the service at
// fault: "primary: not ready", "secondary: other provider".
func (e *PairError) Note() string {
	if e.Role == "" {
		return e.Short
	}
	return e.Role + ": " + e.Short
}

// NoteOf is err's Note when it is a *PairError, else "" (no refusal, or
// one a chooser does not show in its CANNOT BE column).
func NoteOf(err error) string {
	var pe *PairError
	if errors.As(err, &pe) {
		return pe.Note()
	}
	return ""
}

// CheckPrimary applies the rules a primary meets on its own (ready, with
// an endpoint), so a chooser refuses it before any secondary is blamed
// for it. A refusal is a *PairError.
func CheckPrimary(primary *api.Service) error { return checkRole("primary", primary) }

// checkRole applies the rules one side of a pair meets on its own.
func checkRole(role string, s *api.Service) error {
	if !s.Ready() {
		return &PairError{role, "not ready", fmt.Sprintf("the %s %s is %s: both services must be ready", role, SvcName(s), api.OrID(s.Status, "unknown"))}
	}
	if s.FQDN == "" || s.ReadWritePort() == 0 {
		return &PairError{role, "no endpoint yet", fmt.Sprintf("the %s %s has no fqdn or readwrite port yet", role, SvcName(s))}
	}
	return nil
}

// ValidatePair applies the pair's rules: two different services, both
// ready, on the same cloud provider (a backup restores only within one).
// A refusal is a *PairError.
func ValidatePair(primary, secondary *api.Service) error {
	if primary == nil || secondary == nil {
		return &PairError{"", "", "choose a primary and a secondary"}
	}
	if primary.ID == secondary.ID {
		return &PairError{"secondary", "the primary", fmt.Sprintf("%s cannot replicate from itself: choose two different services", SvcName(primary))}
	}
	if err := CheckPrimary(primary); err != nil {
		return err
	}
	if err := checkRole("secondary", secondary); err != nil {
		return err
	}
	if !strings.EqualFold(primary.Provider, secondary.Provider) {
		return &PairError{"secondary", "other provider", fmt.Sprintf("%s runs on %s and %s on %s: a backup can be restored only within the same cloud provider, so both must be on the same provider",
			SvcName(primary), api.OrID(primary.Provider, "?"), SvcName(secondary), api.OrID(secondary.Provider, "?"))}
	}
	return nil
}

// PairNote is why secondary cannot pair with primary, in a few words
// naming the service at fault (PairError.Note), or "" when it can.
func PairNote(primary, secondary *api.Service) string {
	var pe *PairError
	if err := ValidatePair(primary, secondary); errors.As(err, &pe) {
		return pe.Note()
	}
	return ""
}

// SvcName is a service's name, or its ID when it has none.
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

// Stopped reports a replica status whose IO and SQL threads are both
// stopped: stopping replication has nothing to do, starting it applies.
func Stopped(s *api.ReplicationStatus) bool {
	return s != nil && s.Configured && strings.EqualFold(s.IORunning, "no") && strings.EqualFold(s.SQLRunning, "no")
}

// Running reports a replica status whose IO and SQL threads both run
// (the IO thread maybe still connecting): starting replication has
// nothing to do, stopping it applies.
func Running(s *api.ReplicationStatus) bool {
	if s == nil || !s.Configured || !strings.EqualFold(s.SQLRunning, "yes") {
		return false
	}
	io := strings.ToLower(s.IORunning)
	return io == "yes" || io == "connecting" || io == "preparing"
}

// Ago is a duration in the wizard's words: seconds, minutes, hours, then
// days and hours (a 4-day binlog retention is counted in hours).
func Ago(d time.Duration) string { return api.AgoHours(d) }
