package api

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/skytui/skytui/internal/statusword"
)

// Service is a database service as the provisioning interface reports it.
// Fields the interface leaves unspecified are taken from the live service;
// unknown fields are ignored when decoding.
type Service struct {
	Meta
	ID            string         `json:"id"`
	Name          string         `json:"name"`
	Status        string         `json:"status"`
	ServiceType   string         `json:"service_type,omitempty"`
	Topology      string         `json:"topology,omitempty"`
	Provider      string         `json:"provider,omitempty"`
	Region        string         `json:"region,omitempty"`
	Architecture  string         `json:"architecture,omitempty"`
	Size          string         `json:"size,omitempty"`
	Nodes         int            `json:"nodes,omitempty"`
	Version       string         `json:"version,omitempty"`
	FQDN          string         `json:"fqdn"`
	SSLEnabled    bool           `json:"ssl_enabled"`
	OutboundIPs   []string       `json:"outbound_ips,omitempty"`
	Endpoints     []Endpoint     `json:"endpoints"`
	StorageVolume *StorageVolume `json:"storage_volume,omitempty"`
	CreatedOn     UnixTime       `json:"created_on"`
	UpdatedOn     UnixTime       `json:"updated_on,omitempty"`
	Errors        []string       `json:"errors,omitempty"`
	// PrimaryHost is the service a managed replica replicates from (its
	// ID); ReplicationEnabled is true on both ends of managed replication.
	PrimaryHost        string `json:"primary_host,omitempty"`
	ReplicationEnabled bool   `json:"replication_enabled,omitempty"`
}

// Endpoint is one named endpoint of a service with its ports and allow list.
type Endpoint struct {
	Name      string           `json:"name,omitempty"`
	Ports     []Port           `json:"ports"`
	AllowList []AllowListEntry `json:"allow_list,omitempty"`
}

// Port is a named TCP port of an endpoint ("readwrite", "readonly", ...).
type Port struct {
	Name    string `json:"name"`
	Port    int    `json:"port"`
	Purpose string `json:"purpose,omitempty"`
}

// StorageVolume describes a service's disk.
type StorageVolume struct {
	Size       int    `json:"size"`
	IOPS       int    `json:"iops,omitempty"`
	Throughput int    `json:"throughput,omitempty"`
	VolumeType string `json:"volume_type,omitempty"`
}

// AllowListEntry is one allowed address or network.
type AllowListEntry struct {
	IP      string `json:"ip"`
	Comment string `json:"comment,omitempty"`
}

// Port returns the port with the given name across all endpoints, or 0.
func (s *Service) Port(name string) int {
	for _, e := range s.Endpoints {
		for _, p := range e.Ports {
			if strings.EqualFold(p.Name, name) {
				return p.Port
			}
		}
	}
	return 0
}

// ReadWritePort is the port for read-write connections, or 0 before ready.
func (s *Service) ReadWritePort() int { return s.Port("readwrite") }

// AllowList returns the allow-list entries of every endpoint.
func (s *Service) AllowList() []AllowListEntry {
	var out []AllowListEntry
	for _, e := range s.Endpoints {
		out = append(out, e.AllowList...)
	}
	return out
}

// NameOrID is the service's name, else its ID, else "?".
func (s Service) NameOrID() string { return OrID(s.Name, s.ID) }

// OrID is a name, else the ID, else "?".
func OrID(name, id string) string {
	switch {
	case name != "":
		return name
	case id != "":
		return id
	}
	return "?"
}

// ShortKey shortens a backup key "<hash>:<service>:<pod>" to the first 12
// characters of its hash, as the screens show it.
func ShortKey(k string) string {
	h, _, _ := strings.Cut(k, ":")
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

// Ready reports whether the service status is ready.
func (s *Service) Ready() bool { return StatusIs(s.Status, "ready") }

// Pending reports whether the service is in a pending_* state.
func (s *Service) Pending() bool { return IsPendingServiceStatus(s.Status) }

// IsPendingServiceStatus reports whether a provisioning status is transient.
func IsPendingServiceStatus(status string) bool {
	return strings.HasPrefix(strings.ToLower(strings.TrimSpace(status)), "pending")
}

// RestoreTargetProblem says why s cannot be restored into ("" when it can,
// or when its status says nothing against it): a restore needs a ready or
// stopped service, so a pending, failed or deleted one is refused before
// anything is sent; any other status is left to the API.
func RestoreTargetProblem(s Service) string {
	if !IsPendingServiceStatus(s.Status) && !StatusIs(s.Status, "failed", "error", "deleting", "deleted") {
		return ""
	}
	return OrID(s.Name, s.ID) + " is " + s.Status + ": a restore needs a ready or stopped service"
}

// StatusIs compares status words case-insensitively, ignoring spaces,
// underscores and hyphens ("In Progress" == "in_progress" == "inprogress").
func StatusIs(status string, want ...string) bool {
	n := statusword.Norm(status)
	for _, w := range want {
		if n == statusword.Norm(w) {
			return true
		}
	}
	return false
}

// CreateServiceRequest is the body of POST /provisioning/v1/services.
type CreateServiceRequest struct {
	ServiceType  string           `json:"service_type"`
	Topology     string           `json:"topology"`
	Provider     string           `json:"provider"`
	Region       string           `json:"region"`
	Architecture string           `json:"architecture"`
	Size         string           `json:"size"`
	Storage      int              `json:"storage"`
	Nodes        int              `json:"nodes"`
	Name         string           `json:"name"`
	Version      string           `json:"version,omitempty"`
	SSLEnabled   bool             `json:"ssl_enabled"`
	AllowList    []AllowListEntry `json:"allow_list,omitempty"`
}

// Credentials are a service's default username and password.
type Credentials struct {
	Username string `json:"username"`
	Password string `json:"password"`
	Host     string `json:"host,omitempty"`
}

// AllowListGroup is one endpoint's allow list as the allow-list call returns it.
type AllowListGroup struct {
	Name      string           `json:"name"`
	AllowList []AllowListEntry `json:"allow_list"`
}

// UnmarshalJSON also reads the deprecated allowList (addresses without
// comments): an address listed only there is an entry all the same, so a
// list replaced to set a comment keeps it.
func (g *AllowListGroup) UnmarshalJSON(data []byte) error {
	type plain AllowListGroup
	var aux struct {
		plain
		Deprecated []string `json:"allowList"`
	}
	if err := unmarshalLenient(data, &aux); err != nil {
		return err
	}
	*g = AllowListGroup(aux.plain)
	for _, ip := range aux.Deprecated {
		n := NormalizeAllowListIP(ip)
		if !slices.ContainsFunc(g.AllowList, func(e AllowListEntry) bool { return NormalizeAllowListIP(e.IP) == n }) {
			g.AllowList = append(g.AllowList, AllowListEntry{IP: ip})
		}
	}
	return nil
}

// Option listings for the create-service form.

// Provider is a cloud provider option.
type Provider struct {
	ID          string `json:"id,omitempty"`
	Name        string `json:"name"`
	DisplayName string `json:"display_name,omitempty"`
	Default     bool   `json:"default,omitempty"`
}

// Region is a region option of a provider.
type Region struct {
	ID       string `json:"id,omitempty"`
	Name     string `json:"name"`
	Region   string `json:"region,omitempty"`
	Provider string `json:"provider"`
	Default  bool   `json:"default,omitempty"`
}

// ServiceType is a service type option.
type ServiceType struct {
	ID               string `json:"id,omitempty"`
	Name             string `json:"name"`
	DisplayName      string `json:"display_name,omitempty"`
	ShortDescription string `json:"short_description,omitempty"`
}

// Topology is a topology option of a service type.
type Topology struct {
	ID          string `json:"id,omitempty"`
	Name        string `json:"name"`
	DisplayName string `json:"display_name,omitempty"`
	ServiceType string `json:"service_type,omitempty"`
}

// Size is an instance size option.
type Size struct {
	ID           string `json:"id,omitempty"`
	Name         string `json:"name"`
	DisplayName  string `json:"display_name,omitempty"`
	CPU          string `json:"cpu,omitempty"`
	RAM          string `json:"ram,omitempty"`
	Provider     string `json:"provider,omitempty"`
	Topology     string `json:"topology,omitempty"`
	Architecture string `json:"architecture,omitempty"`
	ServiceType  string `json:"service_type,omitempty"`
	Tier         string `json:"tier,omitempty"`
}

// Spec is what the size gives, as every screen words it: "2 vCPU, 8 GB
// RAM". The API says "2 vCPU" and "8 GB"; a bare number gets its unit.
func (s Size) Spec() string {
	var out []string
	if c := strings.TrimSpace(s.CPU); c != "" {
		if _, err := strconv.ParseFloat(c, 64); err == nil {
			c += " vCPU"
		}
		out = append(out, c)
	}
	if r := strings.TrimSpace(s.RAM); r != "" {
		if _, err := strconv.ParseFloat(r, 64); err == nil {
			r += " GB"
		}
		out = append(out, r+" RAM")
	}
	return strings.Join(out, ", ")
}

// Version is a software version option; send Name when creating.
type Version struct {
	ID          string `json:"id,omitempty"`
	Name        string `json:"name"`
	DisplayName string `json:"display_name,omitempty"`
	Version     string `json:"version,omitempty"`
	Topology    string `json:"topology,omitempty"`
	Default     bool   `json:"default,omitempty"`
}

// StorageSizes lists the storage sizes (GB) offered for a topology.
type StorageSizes struct {
	ID           string `json:"id,omitempty"`
	Tier         string `json:"tier,omitempty"`
	Topology     string `json:"topology"`
	StorageSizes []int  `json:"storage_sizes"`
}

// Backup types.
const (
	BackupFull        = "full"
	BackupIncremental = "incremental"
	BackupLogical     = "logical"
	BackupPhysical    = "physical"
	BackupBinarylog   = "binarylog"
	BackupDump        = "dump"     // live service's name for a logical backup
	BackupSnapshot    = "snapshot" // live service's snapshot backup
)

// BackupTypes are the types of the interface document, in form order.
var BackupTypes = []string{BackupFull, BackupIncremental, BackupLogical, BackupPhysical, BackupBinarylog}

// LiveBackupTypes are the types the live service's backup interface
// (/skybackup/v1) takes: its description's enum, in form order.
var LiveBackupTypes = []string{BackupFull, BackupIncremental, BackupBinarylog, BackupDump, BackupSnapshot}

// ScheduleRequest is the body of POST /backups/schedules.
type ScheduleRequest struct {
	BackupType      string           `json:"backup_type"`
	Schedule        string           `json:"schedule"`
	ServiceID       string           `json:"service_id"`
	ExternalStorage *ExternalStorage `json:"external_storage,omitempty"`
}

// ExternalStorage is the user's own bucket as a backup target.
type ExternalStorage struct {
	Bucket ExternalBucket `json:"bucket"`
}

// ExternalBucket is a bucket path and its base64-encoded credentials.
type ExternalBucket struct {
	Path        string `json:"path"`
	Credentials string `json:"credentials"`
}

// Schedule is a backup schedule or job as created and listed.
type Schedule struct {
	Meta
	ID          FlexInt `json:"id"`
	ServiceID   string  `json:"service_id"`
	ServiceName string  `json:"service_name,omitempty"`
	Type        string  `json:"type"`
	// Schedule is "once" or the cron expression. The live listing reports
	// the kind ("once" or "cron") here and the expression elsewhere.
	Schedule  string `json:"schedule"`
	Cron      string `json:"cron,omitempty"`
	Status    string `json:"status,omitempty"`
	Message   string `json:"message,omitempty"`
	Suspended bool   `json:"suspended"`
	Target    string `json:"target,omitempty"`
	// BackupID is the backup a "once" job produces, when the server says.
	BackupID    string `json:"backup_id,omitempty"`
	CreatedAt   Time   `json:"created_at,omitzero"`
	ScheduledAt Time   `json:"scheduled_at,omitzero"`
}

// Expression is the schedule's cron expression, or "once".
func (s *Schedule) Expression() string {
	if s.Cron != "" {
		return s.Cron
	}
	return s.Schedule
}

// OneTime reports a one-time job ("once"): it has nothing to edit, suspend
// or resume, and the API refuses those.
func (s *Schedule) OneTime() bool { return strings.TrimSpace(s.Expression()) == "once" }

// Backup is one entry of the backup listing.
type Backup struct {
	Meta
	// Key identifies the backup: "<hash>:<service_id>:<pod>". The live
	// service calls it id; older pages call it key or backup_id.
	Key                string     `json:"id"`
	ServiceID          string     `json:"service_id"`
	ServiceName        string     `json:"service_name,omitempty"`
	Type               string     `json:"type"`
	Method             string     `json:"method,omitempty"`
	Status             string     `json:"status"`
	StartTime          Time       `json:"start_time,omitzero"`
	EndTime            Time       `json:"end_time,omitzero"`
	PointInTime        string     `json:"point_in_time,omitempty"`
	SizeBytes          int64      `json:"storage_bytes"`
	BinlogFile         string     `json:"binlog_file,omitempty"`
	BinlogPosition     FlexString `json:"binlog_position,omitempty"`
	BinlogGTIDPosition string     `json:"binlog_gtid_position,omitempty"`
	CloudProvider      string     `json:"cloud_provider,omitempty"`
	IsExternalStorage  bool       `json:"is_external_storage"`
	// Bucket is the own-bucket path a backup was written to, when it was.
	Bucket string `json:"bucket,omitempty"`
}

// UnmarshalJSON accepts key / backup_id / id and backup_size / storage_bytes.
func (b *Backup) UnmarshalJSON(data []byte) error {
	type plain Backup
	var aux struct {
		plain
		Key        string  `json:"key"`
		BackupID   string  `json:"backup_id"`
		BackupSize FlexInt `json:"backup_size"`
		Storage    FlexInt `json:"storage_bytes"`
		DiskBytes  FlexInt `json:"disk_size_bytes"`
	}
	if err := unmarshalLenient(data, &aux); err != nil {
		return err
	}
	*b = Backup(aux.plain)
	b.Key = cmp.Or(b.Key, aux.Key, aux.BackupID)
	switch {
	case aux.Storage > 0:
		b.SizeBytes = int64(aux.Storage)
	case aux.BackupSize > 0:
		b.SizeBytes = int64(aux.BackupSize)
	case aux.DiskBytes > 0:
		b.SizeBytes = int64(aux.DiskBytes)
	}
	return nil
}

// Normalised backup states reported by the status call.
const (
	BackupInProgress = "in progress"
	BackupCompleted  = "completed"
	BackupFailed     = "failed"
)

// BackupState maps the many status words of the listing and the status call
// onto in progress / completed / failed; "" when unknown.
func BackupState(status string) string {
	switch {
	case StatusIs(status, "succeeded", "success", "completed", "complete", "done", "finished"):
		return BackupCompleted
	case StatusIs(status, "failed", "failure", "error", "errored", "cancelled", "canceled"):
		return BackupFailed
	case StatusIs(status, "running", "in progress", "inprogress", "pending", "scheduled", "started", "queued", "active"):
		return BackupInProgress
	}
	return ""
}

// BackupWord is a backup's status as every screen words it: the
// normalised state (in progress, completed, failed), else the API's own
// word, else "unknown". The Backups list, the restore wizard's picker, the
// migration and the replication wizard all show this.
func BackupWord(status string) string {
	if st := BackupState(status); st != "" {
		return st
	}
	if strings.TrimSpace(status) == "" {
		return "unknown"
	}
	return status
}

// BackupStatus is one entry of the backup status call.
type BackupStatus struct {
	ID        string `json:"id"`
	ServiceID string `json:"service_id,omitempty"`
	Type      string `json:"type,omitempty"`
	Status    string `json:"status"`
	Message   string `json:"message,omitempty"`
}

// UnmarshalJSON accepts key / backup_id / id.
func (s *BackupStatus) UnmarshalJSON(data []byte) error {
	type plain BackupStatus
	var aux struct {
		plain
		ID       FlexString `json:"id"`
		Key      string     `json:"key"`
		BackupID string     `json:"backup_id"`
	}
	if err := unmarshalLenient(data, &aux); err != nil {
		return err
	}
	*s = BackupStatus(aux.plain)
	s.ID = cmp.Or(string(aux.ID), aux.BackupID, aux.Key)
	return nil
}

// Restore methods for own-bucket restores.
const (
	MethodMariabackup = "mariabackup"
	MethodMysqldump   = "mysqldump"
)

// RestoreRequest is the body of POST /restores. Use the constructors
// ManagedRestore, BucketRestore and BackupIDRestore for the three forms.
type RestoreRequest struct {
	ServiceID      string          `json:"service_id"`
	Key            string          `json:"key,omitempty"`
	ID             string          `json:"id,omitempty"`
	ExternalSource *ExternalSource `json:"external_source,omitempty"`
	// PointInTime (UTC, PITRTimeLayout) makes it a point-in-time restore;
	// ID is then the source service (PointInTimeRestore).
	PointInTime string `json:"point_in_time,omitempty"`
}

// ExternalSource is an own-bucket restore source.
type ExternalSource struct {
	Bucket        string `json:"bucket"`
	Method        string `json:"method"`
	Credentials   string `json:"credentials"`
	EncryptionKey string `json:"encryption_key,omitempty"`
}

// ManagedRestore restores the backup with the given key from managed storage.
// The interface document names the field key; the live service requires id
// and its backup id is the same key, so both carry it.
func ManagedRestore(serviceID, key string) RestoreRequest {
	return RestoreRequest{ServiceID: serviceID, Key: key, ID: key}
}

// BucketRestore restores file from the user's own bucket.
func BucketRestore(serviceID, file string, src ExternalSource) RestoreRequest {
	return RestoreRequest{ServiceID: serviceID, ID: file, ExternalSource: &src}
}

// BackupIDRestore restores a backup by its identifier.
func BackupIDRestore(serviceID, backupID string) RestoreRequest {
	return RestoreRequest{ServiceID: serviceID, ID: backupID}
}

// Restore is a restore record.
type Restore struct {
	Meta
	ID          FlexInt `json:"id"`
	ServiceID   string  `json:"service_id"`
	ServiceName string  `json:"service_name,omitempty"`
	Bucket      string  `json:"bucket,omitempty"`
	Key         string  `json:"key,omitempty"`
	Type        string  `json:"type,omitempty"`
	Status      string  `json:"status"`
	Message     string  `json:"message,omitempty"`
	CreatedAt   Time    `json:"created_at,omitzero"`
}

// UnmarshalJSON accepts backup_id in place of key.
func (r *Restore) UnmarshalJSON(data []byte) error {
	type plain Restore
	var aux struct {
		plain
		BackupID string `json:"backup_id"`
	}
	if err := unmarshalLenient(data, &aux); err != nil {
		return err
	}
	*r = Restore(aux.plain)
	r.Key = cmp.Or(r.Key, aux.BackupID)
	return nil
}

// Running reports whether the restore has a status and has not finished. A
// record without a status (a null or odd answer) is not counted as running:
// nothing about it says so.
func (r *Restore) Running() bool { return strings.TrimSpace(r.Status) != "" && !r.Finished() }

// NewestRunningRestore is the newest running restore into targetID in
// list, of the backup key when key is given and the listing names one
// (nil when there is none): the restore a change accepted with an answer
// nobody could read started.
func NewestRunningRestore(list []Restore, targetID, key string) *Restore {
	var best *Restore
	for i := range list {
		r := &list[i]
		if r.ServiceID != targetID || !r.Running() || key != "" && r.Key != "" && r.Key != key {
			continue
		}
		if best == nil || r.ID > best.ID {
			best = r
		}
	}
	return best
}

// Finished reports whether the restore succeeded or failed.
func (r *Restore) Finished() bool { return r.Succeeded() || r.Failed() }

// DeleteRefusal is why r cannot be deleted (cancelled), "" when it can:
// it has finished.
func (r *Restore) DeleteRefusal() string {
	if !r.Finished() {
		return ""
	}
	return fmt.Sprintf("restore %d has finished (%s): only a restore that has not finished can be deleted", int64(r.ID), r.Status)
}

// Succeeded reports whether the restore succeeded.
func (r *Restore) Succeeded() bool { return StatusIs(r.Status, "succeeded", "success", "completed") }

// Failed reports whether the restore failed.
func (r *Restore) Failed() bool {
	return StatusIs(r.Status, "failed", "failure", "error", "cancelled", "canceled")
}

// Where is the service's provider and region: "aws/us-east-1".
func (s *Service) Where() string { return strings.Trim(s.Provider+"/"+s.Region, "/") }

// hasRecord reports that an answer carried a service (it has an ID).
func (s *Service) hasRecord() bool { return s.ID != "" }

// hasRecord reports that an answer carried a job or schedule (an ID).
func (s *Schedule) hasRecord() bool { return s.ID != 0 }
