package api

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/robfig/cron/v3"
)

// The rules of the interface, written once: the forms call them as the user
// types, the client before sending, and the sandbox to answer 400.

// FieldError names the field and the rule it broke.
type FieldError struct {
	Field string
	Rule  string
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Rule }

// ValidationErrors collects every broken rule of a request.
type ValidationErrors []*FieldError

func (v ValidationErrors) Error() string {
	parts := make([]string, len(v))
	for i, e := range v {
		parts[i] = e.Error()
	}
	return strings.Join(parts, "; ")
}

// Err returns nil for no errors, so callers can return it directly.
func (v ValidationErrors) Err() error {
	if len(v) == 0 {
		return nil
	}
	return v
}

func (v *ValidationErrors) add(field string, err error) {
	if err == nil {
		return
	}
	if fe, ok := err.(*FieldError); ok {
		*v = append(*v, &FieldError{Field: field, Rule: fe.Rule})
		return
	}
	*v = append(*v, &FieldError{Field: field, Rule: err.Error()})
}

func rule(field, format string, a ...any) *FieldError {
	return &FieldError{Field: field, Rule: fmt.Sprintf(format, a...)}
}

// Service name limits.
const (
	ServiceNameMin = 4
	ServiceNameMax = 24
)

// ValidateServiceName checks the 4–24 character rule.
func ValidateServiceName(name string) error {
	n := utf8.RuneCountInString(name)
	if strings.TrimSpace(name) == "" {
		return rule("name", "is required (%d to %d characters)", ServiceNameMin, ServiceNameMax)
	}
	if n < ServiceNameMin || n > ServiceNameMax {
		return rule("name", "must be %d to %d characters (has %d)", ServiceNameMin, ServiceNameMax, n)
	}
	return nil
}

// Providers are the cloud providers of the interface.
var Providers = []string{"aws", "gcp", "azure"}

// ValidateProvider checks aws|gcp|azure.
func ValidateProvider(p string) error {
	for _, v := range Providers {
		if p == v {
			return nil
		}
	}
	if p == "" {
		return rule("provider", "is required (aws, gcp or azure)")
	}
	return rule("provider", "must be aws, gcp or azure (got %q)", p)
}

// Architectures are the hardware architectures a service is created on
// (the live description's enumeration).
var Architectures = []string{"amd64", "arm64"}

// ValidateArchitecture checks amd64|arm64.
func ValidateArchitecture(a string) error {
	switch {
	case slices.Contains(Architectures, a):
		return nil
	case strings.TrimSpace(a) == "":
		return rule("architecture", "is required (amd64 or arm64)")
	}
	return rule("architecture", "must be amd64 or arm64 (got %q)", a)
}

// ValidateBackupType checks the interface's types and the live dump/snapshot.
func ValidateBackupType(t string) error {
	switch t {
	case BackupFull, BackupIncremental, BackupLogical, BackupPhysical, BackupBinarylog, BackupDump, BackupSnapshot:
		return nil
	case "":
		return rule("backup_type", "is required (full, incremental, logical, physical or binarylog; on the live service full, incremental, binarylog, dump or snapshot)")
	}
	return rule("backup_type", "must be full, incremental, logical, physical or binarylog; on the live service full, incremental, binarylog, dump or snapshot (got %q)", t)
}

var cronParser = cron.NewParser(cron.Minute | cron.Hour | cron.Dom | cron.Month | cron.Dow)

// ParseCron parses a 5-field cron expression.
func ParseCron(expr string) (cron.Schedule, error) {
	if n := len(strings.Fields(expr)); n != 5 {
		return nil, fmt.Errorf("a cron expression has 5 fields (minute hour day-of-month month day-of-week), this has %d", n)
	}
	s, err := cronParser.Parse(expr)
	if err != nil {
		return nil, fmt.Errorf("invalid cron expression: %s", cronFieldError(strings.Fields(expr), err))
	}
	if s.Next(time.Now()).IsZero() {
		// a day its months never have (31 April, 30 February): accepted
		// by the grammar, it would never start a backup
		return nil, errors.New("it never runs: no date matches it (a day of the month its months do not have, such as 31 in April or 30 in February)")
	}
	return s, nil
}

// cronFields names the fields of a cron expression, with their ranges.
var cronFields = [5]struct{ name, span string }{
	{"minute", "0-59"}, {"hour", "0-23"}, {"day-of-month", "1-31"}, {"month", "1-12 or JAN-DEC"}, {"day-of-week", "0-6 or SUN-SAT"},
}

// cronErrors turn the parser's words into plain ones (what is wrong, and
// the form that is right).
var cronErrors = []struct {
	re   *regexp.Regexp
	says func(m []string) string
}{
	{regexp.MustCompile(`^failed to parse int from :`), func([]string) string {
		return "a number is missing (a range is start-end, as 1-5; a step follows /, as */15)"
	}},
	{regexp.MustCompile(`^failed to parse int from (.*?):`), func(m []string) string { return fmt.Sprintf("%q is not a number", m[1]) }},
	{regexp.MustCompile(`^end of range \((\d+)\) above maximum \((\d+)\)`), func(m []string) string { return m[1] + " is above " + m[2] }},
	{regexp.MustCompile(`^beginning of range \((\d+)\) below minimum \((\d+)\)`), func(m []string) string { return m[1] + " is below " + m[2] }},
	{regexp.MustCompile(`^beginning of range \((\d+)\) beyond end of range \((\d+)\)`), func(m []string) string {
		return "a range starts before it ends (" + m[2] + "-" + m[1] + ", not " + m[1] + "-" + m[2] + ")"
	}},
	{regexp.MustCompile(`^step of range should be a positive number`), func([]string) string { return "the step after / must be 1 or more" }},
	{regexp.MustCompile(`^too many hyphens`), func([]string) string { return `one "-" at most (a range is start-end, as 1-5)` }},
	{regexp.MustCompile(`^too many slashes`), func([]string) string { return `one "/" at most (a step is */15 or 0-30/5)` }},
	{regexp.MustCompile(`^negative number \((-?\d+)\)`), func(m []string) string { return m[1] + " is negative" }},
}

// cronFieldError says which field of a 5-field expression the parser
// refused (each tried alone, the others "*") and why, in plain words:
// `day-of-week "1-" (0-6 or SUN-SAT): a number is missing (…)`.
func cronFieldError(fields []string, err error) string {
	why := err.Error()
	for _, e := range cronErrors {
		if m := e.re.FindStringSubmatch(why); m != nil {
			why = e.says(m)
			break
		}
	}
	for i, f := range fields {
		alone := []string{"*", "*", "*", "*", "*"}
		alone[i] = f
		if _, err := cronParser.Parse(strings.Join(alone, " ")); err != nil {
			return fmt.Sprintf("%s %q (%s): %s", cronFields[i].name, f, cronFields[i].span, why)
		}
	}
	return why
}

// ValidateSchedule checks "once" or a 5-field cron expression.
func ValidateSchedule(s string) error {
	if s == "once" {
		return nil
	}
	if strings.TrimSpace(s) == "" {
		return rule("schedule", `is required: "once" or a 5-field cron expression`)
	}
	if _, err := ParseCron(s); err != nil {
		return rule("schedule", `must be "once" or a 5-field cron expression: %v`, err)
	}
	return nil
}

// NextRuns returns the next n run times of a cron expression after t, in t's
// location.
func NextRuns(expr string, after time.Time, n int) ([]time.Time, error) {
	s, err := ParseCron(expr)
	if err != nil {
		return nil, err
	}
	out := make([]time.Time, 0, n)
	t := after
	for range n {
		t = s.Next(t)
		if t.IsZero() {
			break
		}
		out = append(out, t)
	}
	return out, nil
}

// Bucket names as both object stores accept them: 3–63 characters of lower
// case letters, digits, dots, hyphens and underscores, starting and ending
// with a letter or digit.
var bucketNameRe = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{1,61}[a-z0-9]$`)

// ParseBucketURI splits "s3://bucket/path" into scheme, bucket and path.
func ParseBucketURI(uri string) (scheme, bucket, path string, err error) {
	switch {
	case strings.HasPrefix(uri, "s3://"):
		scheme = "s3"
	case strings.HasPrefix(uri, "gs://"):
		scheme = "gs"
	default:
		return "", "", "", fmt.Errorf("must start with s3:// or gs://")
	}
	rest := uri[len(scheme)+3:]
	bucket, path, _ = strings.Cut(rest, "/")
	if bucket == "" {
		return scheme, "", "", fmt.Errorf("has no bucket name after %s://", scheme)
	}
	if !bucketNameRe.MatchString(bucket) {
		return scheme, bucket, path, fmt.Errorf("bucket name %q must be 3 to 63 lower-case letters, digits, dots, hyphens or underscores", bucket)
	}
	return scheme, bucket, path, nil
}

// ValidateBackupBucketPath checks s3://<bucket>/<path> or gs://<bucket>/<path>.
func ValidateBackupBucketPath(p string) error {
	const field = "external_storage.bucket.path"
	if p == "" {
		return rule(field, "is required: s3://<bucket>/<path> or gs://<bucket>/<path>")
	}
	_, _, path, err := ParseBucketURI(p)
	if err != nil {
		return rule(field, "%v (expected s3://<bucket>/<path> or gs://<bucket>/<path>)", err)
	}
	if strings.Trim(path, "/") == "" {
		return rule(field, "needs a path after the bucket name: s3://<bucket>/<path> or gs://<bucket>/<path>")
	}
	return nil
}

// ValidateRestoreBucket checks gs://NAME/ or s3://NAME/ with the trailing
// slash: the bucket alone, as the interface document gives it. A path
// after the name (a folder, a file's whole path) belongs to the backup
// file, the request's id (SplitRestoreBucket moves it there).
func ValidateRestoreBucket(b string) error {
	const field = "external_source.bucket"
	if b == "" {
		return rule(field, "is required: gs://<bucket>/ or s3://<bucket>/")
	}
	scheme, name, path, err := ParseBucketURI(b)
	if err != nil {
		return rule(field, "%v (expected gs://<bucket>/ or s3://<bucket>/)", err)
	}
	if strings.Trim(path, "/") != "" {
		return rule(field, "has a path after the bucket name (%s): the bucket is %s://%s/ alone, the path belongs to the backup file", path, scheme, name)
	}
	if !strings.HasSuffix(b, "/") {
		return rule(field, "must end with a trailing slash after the bucket name: %s/", b)
	}
	return nil
}

// SplitRestoreBucket splits a restore's bucket given with a path after
// its name into the bucket alone and the backup file's whole path, from
// the file given (file, possibly ""): a file's whole path given as the
// bucket (with no file, the same path, or its last part) is that file; a
// folder (a path whose last part does not end in .gz) takes the file
// below it. ok is false when the bucket has no path after its name or
// does not parse; path is "" when no file is known (a folder ending in
// "/" and no file) or the two name different files (gs://b/d/a.gz and
// b.gz).
func SplitRestoreBucket(bucketURI, file string) (bucket, path string, ok bool) {
	scheme, name, p, err := ParseBucketURI(strings.TrimSpace(bucketURI))
	folder := strings.Trim(p, "/")
	if err != nil || folder == "" {
		return "", "", false
	}
	bucket = scheme + "://" + name + "/"
	f := strings.TrimLeft(strings.TrimSpace(file), "/")
	gz := strings.HasSuffix(strings.ToLower(folder[strings.LastIndexByte(folder, '/')+1:]), ".gz")
	switch {
	case f == "" && (gz || !strings.HasSuffix(p, "/")):
		return bucket, folder, true // a file's whole path
	case f == "":
		// a folder, and no file
	case f == folder || strings.HasSuffix(folder, "/"+f):
		return bucket, folder, true // the whole path, and the file again
	case strings.HasPrefix(f, folder+"/"):
		return bucket, f, true // the folder, and the whole path
	case !gz:
		return bucket, folder + "/" + f, true // a folder, and the file in it
	}
	return bucket, "", true
}

// ValidateMethod checks mariabackup|mysqldump.
func ValidateMethod(m string) error {
	switch m {
	case MethodMariabackup, MethodMysqldump:
		return nil
	case "":
		return rule("external_source.method", "is required (mariabackup or mysqldump)")
	}
	return rule("external_source.method", "must be mariabackup or mysqldump (got %q)", m)
}

// ValidateAllowListIP checks an IP address or CIDR network.
func ValidateAllowListIP(ip string) error {
	ip = strings.TrimSpace(ip)
	if ip == "" {
		return rule("ip", "is required: an address or CIDR network such as 203.0.113.7/32")
	}
	if strings.Contains(ip, "/") {
		p, err := netip.ParsePrefix(ip)
		if err != nil {
			return rule("ip", "%q is not a valid CIDR network (such as 203.0.113.0/24)", ip)
		}
		if p.Masked() != p {
			return rule("ip", "%q has host bits set; did you mean %s?", ip, p.Masked())
		}
		return nil
	}
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return rule("ip", "%q is not a valid IP address or CIDR network", ip)
	}
	if a.Zone() != "" {
		return rule("ip", "%q names an interface (%%%s): an allow list takes the address alone", ip, a.Zone())
	}
	return nil
}

// WideNetwork warns about an allow-list entry that opens a service to a
// large part of the internet: an IPv4 network wider than /16 (65,536
// addresses) or an IPv6 network wider than /48. It returns "" for anything
// narrower, and for what does not parse (ValidateAllowListIP says why).
func WideNetwork(ip string) string {
	p, err := netip.ParsePrefix(NormalizeAllowListIP(ip))
	if err != nil {
		return ""
	}
	limit := 16
	if p.Addr().Is6() {
		limit = 48
	}
	switch {
	case p.Bits() == 0:
		return p.String() + " lets every address on the internet connect"
	case p.Bits() < limit:
		return fmt.Sprintf("%s is wider than /%d: every address in it may connect", p, limit)
	}
	return ""
}

// NormalizeAllowListIP turns a bare address into a one-host CIDR (/32 or
// /128), and spells a network one way (lower case, IPv6 zeros compressed:
// 2001:DB8:0::/64 is 2001:db8::/64), so that entries are compared as
// networks, not as text. What does not parse is returned trimmed.
func NormalizeAllowListIP(ip string) string {
	ip = strings.TrimSpace(ip)
	if strings.Contains(ip, "/") {
		if p, err := netip.ParsePrefix(ip); err == nil {
			return p.String()
		}
		return ip
	}
	if a, err := netip.ParseAddr(ip); err == nil {
		a = a.Unmap() // ::ffff:192.0.2.44 is 192.0.2.44, as the server matches it
		return netip.PrefixFrom(a, a.BitLen()).String()
	}
	return ip
}

var serviceIDRe = regexp.MustCompile(`^db[a-z0-9]+$`)

// ValidateServiceID checks "db" followed by lower-case letters and digits
// (dbt…, and the live dbpgf…, dbdwf…).
func ValidateServiceID(id string) error {
	if id == "" {
		return rule("service_id", "is required")
	}
	if !serviceIDRe.MatchString(id) {
		return rule("service_id", "%q is not a service ID (db followed by lower-case letters and digits, such as dbtgf28216706)", id)
	}
	return nil
}

// Validate checks a create-service request.
func (r *CreateServiceRequest) Validate() error {
	var v ValidationErrors
	v.add("name", ValidateServiceName(r.Name))
	v.add("provider", ValidateProvider(r.Provider))
	v.add("architecture", ValidateArchitecture(r.Architecture))
	for f, val := range map[string]string{"service_type": r.ServiceType, "topology": r.Topology, "region": r.Region, "size": r.Size} {
		if strings.TrimSpace(val) == "" {
			v.add(f, fmt.Errorf("is required"))
		}
	}
	switch {
	case r.Storage == 0:
		v.add("storage", fmt.Errorf("is required: a size in GB"))
	case r.Storage < 0:
		v.add("storage", fmt.Errorf("must be a positive size in GB"))
	}
	if r.Nodes < 1 {
		v.add("nodes", fmt.Errorf("must be at least 1"))
	}
	seen := map[string]int{}
	for i, e := range r.AllowList {
		err := ValidateAllowListIP(e.IP)
		n := NormalizeAllowListIP(e.IP)
		if j, dup := seen[n]; err == nil && dup {
			// compared as networks: 10.1.1.1 is 10.1.1.1/32 (the API
			// refuses the request with 400)
			err = fmt.Errorf("%s is listed twice (also entry %d, %s)", n, j+1, strings.TrimSpace(r.AllowList[j].IP))
		}
		seen[n] = i
		v.add(fmt.Sprintf("allow_list[%d].ip", i), err)
	}
	slices.SortStableFunc(v, func(a, b *FieldError) int { return strings.Compare(a.Field, b.Field) })
	return v.Err()
}

// Validate checks a backup schedule request.
func (r *ScheduleRequest) Validate() error {
	var v ValidationErrors
	v.add("backup_type", ValidateBackupType(r.BackupType))
	v.add("schedule", ValidateSchedule(r.Schedule))
	v.add("service_id", ValidateServiceID(r.ServiceID))
	if r.ExternalStorage != nil {
		v.add("external_storage.bucket.path", ValidateBackupBucketPath(r.ExternalStorage.Bucket.Path))
		if r.ExternalStorage.Bucket.Credentials == "" {
			v.add("external_storage.bucket.credentials", fmt.Errorf("is required with external_storage"))
		} else if s, _, _, err := ParseBucketURI(r.ExternalStorage.Bucket.Path); err == nil {
			v.add("external_storage.bucket.credentials", ValidateEncodedCredentials(s, r.ExternalStorage.Bucket.Credentials))
		}
	}
	return v.Err()
}

// Validate checks a restore request in any of its three forms.
func (r *RestoreRequest) Validate() error {
	var v ValidationErrors
	v.add("service_id", ValidateServiceID(r.ServiceID))
	if es := r.ExternalSource; es != nil {
		if r.ID == "" && r.Key == "" {
			v.add("id", fmt.Errorf("is required: the backup file in the bucket"))
		}
		v.add("external_source.bucket", ValidateRestoreBucket(es.Bucket))
		v.add("external_source.method", ValidateMethod(es.Method))
		if es.Credentials == "" {
			v.add("external_source.credentials", fmt.Errorf("is required"))
		} else if s, _, _, err := ParseBucketURI(es.Bucket); err == nil {
			v.add("external_source.credentials", ValidateEncodedCredentials(s, es.Credentials))
		}
	} else if r.PointInTime != "" {
		v.add("id", ValidateServiceID(r.ID))
		if _, err := time.Parse(PITRTimeLayout, r.PointInTime); err != nil {
			v.add("point_in_time", fmt.Errorf("%q is not 'CCYY-MM-DD hh:mm:ss' (UTC)", r.PointInTime))
		}
	} else if r.ID == "" && r.Key == "" {
		v.add("key", fmt.Errorf("is required: the key of a backup (or id, a backup identifier)"))
	}
	return v.Err()
}

// IsLoopbackHost reports whether host (no port) is localhost or a loopback IP.
func IsLoopbackHost(host string) bool {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// ValidateBaseURL requires an absolute http(s) URL with a host and no
// credentials, query or fragment, and HTTPS for anything but loopback
// (localhost, 127.0.0.0/8, ::1): the API key never crosses a network in
// clear text.
func ValidateBaseURL(raw string) error {
	if strings.TrimSpace(raw) == "" {
		return fmt.Errorf("base URL is empty")
	}
	u, err := url.Parse(raw)
	if err != nil {
		shown := raw
		if strings.Contains(raw, "@") {
			shown = "(not shown: may contain credentials)"
		}
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return fmt.Errorf("base URL %s: %v", shown, err)
	}
	switch u.Scheme {
	case "https", "http":
	case "":
		return fmt.Errorf("base URL %s: missing scheme (want https://host)", raw)
	default:
		return fmt.Errorf("base URL %s: scheme %q not supported (want https)", raw, u.Scheme)
	}
	if u.Host == "" || u.Hostname() == "" {
		return fmt.Errorf("base URL %s: missing host", raw)
	}
	if u.User != nil {
		c := *u
		c.User = url.User("REDACTED")
		return fmt.Errorf("base URL %s: must not contain credentials (user:password@)", c.String())
	}
	if u.RawQuery != "" || u.Fragment != "" || u.ForceQuery {
		return fmt.Errorf("base URL %s: must not have a query or fragment", raw)
	}
	if u.Scheme == "http" && !IsLoopbackHost(u.Hostname()) {
		return fmt.Errorf("base URL %s: HTTPS is required for non-loopback hosts", raw)
	}
	return nil
}
