package api

import (
	"encoding/base64"
	"strings"
	"testing"
	"time"
)

// wantValid checks that validate accepts every value.
func wantValid(t *testing.T, validate func(string) error, values ...string) {
	t.Helper()
	for _, v := range values {
		if err := validate(v); err != nil {
			t.Errorf("%q: %v", v, err)
		}
	}
}

func wantRule(t *testing.T, err error, field, contains string) {
	t.Helper()
	if err == nil {
		t.Fatalf("want an error on %s containing %q, got none", field, contains)
	}
	if !strings.Contains(err.Error(), field) || !strings.Contains(err.Error(), contains) {
		t.Fatalf("error %q should name %s and say %q", err, field, contains)
	}
}

func TestValidateServiceName(t *testing.T) {
	wantValid(t, ValidateServiceName, "abcd", "my-first-service", strings.Repeat("x", 24))
	wantRule(t, ValidateServiceName("abc"), "name", "4 to 24 characters (has 3)")
	wantRule(t, ValidateServiceName(strings.Repeat("x", 25)), "name", "(has 25)")
	wantRule(t, ValidateServiceName(""), "name", "required")
}

func TestValidateEnumerations(t *testing.T) {
	for _, p := range []string{"aws", "gcp", "azure"} {
		if ValidateProvider(p) != nil {
			t.Errorf("provider %s", p)
		}
	}
	wantRule(t, ValidateProvider("oracle"), "provider", "aws, gcp or azure")
	for _, bt := range []string{"full", "incremental", "logical", "physical", "binarylog", "dump", "snapshot"} {
		if ValidateBackupType(bt) != nil {
			t.Errorf("backup type %s", bt)
		}
	}
	wantRule(t, ValidateBackupType("FULL "), "backup_type", "must be full")
	wantRule(t, ValidateMethod("xtrabackup"), "external_source.method", "mariabackup or mysqldump")
	if ValidateMethod("mysqldump") != nil || ValidateMethod("mariabackup") != nil {
		t.Error("methods")
	}
}

func TestValidateSchedule(t *testing.T) {
	wantValid(t, ValidateSchedule, "once", "0 2 * * *", "*/15 * * * 1-5", "30 4 1 * *")
	wantRule(t, ValidateSchedule("0 2 * *"), "schedule", "has 4")
	wantRule(t, ValidateSchedule("0 2 * * * *"), "schedule", "has 6")
	wantRule(t, ValidateSchedule("61 2 * * *"), "schedule", `invalid cron expression: minute "61" (0-59): 61 is above 59`)
	// the parser's words are not shown: the field, its range, what is wrong
	for expr, want := range map[string]string{
		"30 2 * * 1-":   `day-of-week "1-" (0-6 or SUN-SAT): a number is missing (a range is start-end, as 1-5; a step follows /, as */15)`,
		"0 2 5-3 * *":   `day-of-month "5-3" (1-31): a range starts before it ends (3-5, not 5-3)`,
		"*/0 * * * *":   `minute "*/0" (0-59): the step after / must be 1 or more`,
		"0 2 * * MONN":  `day-of-week "MONN" (0-6 or SUN-SAT): "MONN" is not a number`,
		"0 2 * 1-2-3 *": `month "1-2-3" (1-12 or JAN-DEC): one "-" at most (a range is start-end, as 1-5)`,
	} {
		err := ValidateSchedule(expr)
		wantRule(t, err, "schedule", want)
		if err != nil && (strings.Contains(err.Error(), "strconv") || strings.Contains(err.Error(), "failed to parse")) {
			t.Errorf("%s: the parser's words: %v", expr, err)
		}
	}
	wantRule(t, ValidateSchedule("@daily"), "schedule", "5 fields")
	wantRule(t, ValidateSchedule("ONCE"), "schedule", "")
	// the grammar allows a day its months never have: it would never run
	wantRule(t, ValidateSchedule("0 0 31 4 *"), "schedule", "it never runs")
	wantRule(t, ValidateSchedule("0 0 30 2 *"), "schedule", "it never runs")
	wantValid(t, ValidateSchedule, "0 0 29 2 *", "0 0 31 * *")
}

func TestNextRunsHonourLocation(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Skip("no tzdata:", err)
	}
	from := time.Date(2026, 3, 28, 12, 0, 0, 0, berlin) // the day before DST starts
	runs, err := NextRuns("30 2 * * *", from, 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 3 {
		t.Fatalf("runs %v", runs)
	}
	// 02:30 does not exist on 2026-03-29 in Berlin; robfig/cron skips it.
	if runs[0].Day() != 30 && runs[0].Day() != 29 {
		t.Errorf("first run %v", runs[0])
	}
	for _, r := range runs {
		if r.Location() != berlin {
			t.Errorf("run %v not in the given location", r)
		}
	}
	utc, _ := NextRuns("0 2 * * *", time.Date(2026, 1, 1, 3, 0, 0, 0, time.UTC), 2)
	if !utc[0].Equal(time.Date(2026, 1, 2, 2, 0, 0, 0, time.UTC)) || !utc[1].Equal(time.Date(2026, 1, 3, 2, 0, 0, 0, time.UTC)) {
		t.Errorf("daily at 02:00 UTC: %v", utc)
	}
}

func TestValidateBuckets(t *testing.T) {
	wantValid(t, ValidateBackupBucketPath, "s3://my-bucket/backups", "gs://bkt.example/a/b/")
	wantRule(t, ValidateBackupBucketPath("https://x/y"), "external_storage.bucket.path", "s3:// or gs://")
	wantRule(t, ValidateBackupBucketPath("s3://my-bucket"), "external_storage.bucket.path", "needs a path")
	wantRule(t, ValidateBackupBucketPath("s3://My_Bucket/x"), "external_storage.bucket.path", "lower-case")
	wantRule(t, ValidateBackupBucketPath("gs:///x"), "external_storage.bucket.path", "no bucket name")

	wantValid(t, ValidateRestoreBucket, "gs://my-bucket/", "s3://my-bucket/")
	wantRule(t, ValidateRestoreBucket("gs://my-bucket"), "external_source.bucket", "trailing slash")
	wantRule(t, ValidateRestoreBucket("ftp://my-bucket/"), "external_source.bucket", "s3:// or gs://")
	// the bucket alone: a folder, or a file's whole path, goes in the file
	for _, b := range []string{"s3://my-bucket/folder/", "gs://my-bucket/d/x.sql.gz"} {
		wantRule(t, ValidateRestoreBucket(b), "external_source.bucket", "has a path after the bucket name")
	}
}

func TestSplitRestoreBucket(t *testing.T) {
	for _, c := range []struct{ bucket, file, wantBucket, wantFile string }{
		{"gs://bkt/d/x.sql.gz", "", "gs://bkt/", "d/x.sql.gz"},
		{"gs://bkt/d/x.sql.gz/", "", "gs://bkt/", "d/x.sql.gz"},
		{"gs://bkt/d/x.sql.gz", "x.sql.gz", "gs://bkt/", "d/x.sql.gz"},
		{"gs://bkt/d/x.sql.gz", "d/x.sql.gz", "gs://bkt/", "d/x.sql.gz"},
		{"gs://bkt/d/", "x.sql.gz", "gs://bkt/", "d/x.sql.gz"},
		{"s3://bkt/d/e", "x.sql.gz", "s3://bkt/", "d/e/x.sql.gz"},
		{"gs://bkt/d/", "d/x.sql.gz", "gs://bkt/", "d/x.sql.gz"},
		{"gs://bkt/d/", "", "gs://bkt/", ""},
		{"gs://bkt/d/a.gz", "b.gz", "gs://bkt/", ""},
	} {
		b, f, ok := SplitRestoreBucket(c.bucket, c.file)
		if !ok || b != c.wantBucket || f != c.wantFile {
			t.Errorf("%s %s: %q %q %v, want %q %q", c.bucket, c.file, b, f, ok, c.wantBucket, c.wantFile)
		}
	}
	for _, b := range []string{"gs://bkt/", "gs://bkt", "ftp://bkt/d/x.gz"} {
		if _, _, ok := SplitRestoreBucket(b, "x.gz"); ok {
			t.Errorf("%s: split", b)
		}
	}
}

func TestValidateAllowListIP(t *testing.T) {
	wantValid(t, ValidateAllowListIP, "203.0.113.7", "203.0.113.7/32", "10.0.0.0/8", "2001:db8::/32", "::1")
	wantRule(t, ValidateAllowListIP("203.0.113.300"), "ip", "not a valid IP")
	wantRule(t, ValidateAllowListIP("203.0.113.7/33"), "ip", "not a valid CIDR")
	wantRule(t, ValidateAllowListIP("203.0.113.7/24"), "ip", "did you mean 203.0.113.0/24")
	if NormalizeAllowListIP("203.0.113.7") != "203.0.113.7/32" || NormalizeAllowListIP("2001:db8::1") != "2001:db8::1/128" {
		t.Error("normalise to one-host CIDR")
	}
	// networks are compared as networks: one spelling for each
	for _, typed := range []string{"2001:DB8::/64", "2001:db8:0::/64", " 2001:0db8:0000:0000::/64", "2001:db8::/64"} {
		if got := NormalizeAllowListIP(typed); got != "2001:db8::/64" {
			t.Errorf("NormalizeAllowListIP(%q) = %q, want 2001:db8::/64", typed, got)
		}
	}
	if got := NormalizeAllowListIP("::ffff:192.0.2.44"); got != "192.0.2.44/32" {
		t.Errorf("an IPv4-mapped address: %q", got)
	}
	wantRule(t, ValidateAllowListIP("fe80::1%eth0"), "ip", "names an interface (%eth0)")
	if got := NormalizeAllowListIP("2001:DB8::2/128"); got != "2001:db8::2/128" {
		t.Errorf("a /128 spelled in capitals: %q", got)
	}
}

func TestValidateServiceID(t *testing.T) {
	wantValid(t, ValidateServiceID, "dbtgf28216706", "dbpgf00000001", "dbdwf123abc")
	for _, bad := range []string{"", "db", "DBT123", "xdbt1", "dbt-12", "dbt 1"} {
		if ValidateServiceID(bad) == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func goodService() CreateServiceRequest {
	return CreateServiceRequest{ServiceType: "transactional", Topology: "es-single", Provider: "gcp", Region: "us-central1",
		Architecture: "amd64", Size: "sky-2x8", Storage: 100, Nodes: 1, Name: "orders", SSLEnabled: true,
		AllowList: []AllowListEntry{{IP: "203.0.113.7/32"}}}
}

func TestCreateServiceRequestValidate(t *testing.T) {
	r := goodService()
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	r.Name = "ab"
	r.Provider = "ibm"
	r.Nodes = 0
	r.AllowList = append(r.AllowList, AllowListEntry{IP: "nope"})
	err := r.Validate()
	for _, f := range []string{"name:", "provider:", "nodes:", "allow_list[1].ip:"} {
		if err == nil || !strings.Contains(err.Error(), f) {
			t.Errorf("want %s in %v", f, err)
		}
	}
}

func gcsKey() []byte {
	return []byte(`{"type": "service_account", "project_id": "p", "client_email": "sa@p.iam.gserviceaccount.com", "private_key": "-----BEGIN PRIVATE KEY-----\nMII\n-----END PRIVATE KEY-----\n"}`)
}

func TestScheduleRequestValidate(t *testing.T) {
	gcs, err := EncodeGCSCredentials(gcsKey())
	if err != nil {
		t.Fatal(err)
	}
	r := ScheduleRequest{BackupType: "logical", Schedule: "0 3 * * *", ServiceID: "dbtgf1",
		ExternalStorage: &ExternalStorage{Bucket: ExternalBucket{Path: "gs://bkt/nightly", Credentials: gcs}}}
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	r.ExternalStorage.Bucket.Credentials = base64.StdEncoding.EncodeToString([]byte("[default]\nfoo = bar\n"))
	wantRule(t, r.Validate(), "external_storage.bucket.credentials", "service-account")
	r.ExternalStorage.Bucket.Credentials = ""
	wantRule(t, r.Validate(), "external_storage.bucket.credentials", "required")
}

func TestRestoreRequestValidate(t *testing.T) {
	s3, err := EncodeS3Credentials(S3Credentials{AccessKeyID: "AKIA", SecretAccessKey: "secret", Region: "us-east-1"})
	if err != nil {
		t.Fatal(err)
	}
	ok := []RestoreRequest{
		ManagedRestore("dbtgf1", "ab:dbtgf1:pod-0"),
		BackupIDRestore("dbtgf1", "ab:dbtgf2:pod-0"),
		BucketRestore("dbtgf1", "dump.sql.gz", ExternalSource{Bucket: "s3://bkt/", Method: "mysqldump", Credentials: s3}),
	}
	for _, r := range ok {
		if err := r.Validate(); err != nil {
			t.Errorf("%+v: %v", r, err)
		}
	}
	noSlash := BucketRestore("dbtgf1", "dump.sql.gz", ExternalSource{Bucket: "s3://bkt", Method: "mysqldump", Credentials: s3})
	wantRule(t, noSlash.Validate(), "external_source.bucket", "trailing slash")
	m := ManagedRestore("dbtgf1", "k")
	if m.Key != "k" || m.ID != "k" {
		t.Error("a managed restore carries the key as key and as id")
	}
	empty := RestoreRequest{ServiceID: "dbtgf1"}
	wantRule(t, empty.Validate(), "key", "required")
}

func TestCredentialsEncoding(t *testing.T) {
	enc, err := EncodeGCSCredentials(gcsKey())
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := base64.StdEncoding.DecodeString(enc)
	if strings.Contains(string(raw), "\": ") {
		t.Error("GCS key must be compacted before encoding")
	}
	if _, err := EncodeGCSCredentials([]byte(`{"type":"user"}`)); err == nil || !strings.Contains(err.Error(), "service_account") {
		t.Errorf("non service-account key: %v", err)
	}
	s3, err := EncodeS3Credentials(S3Credentials{AccessKeyID: "AKIAX", SecretAccessKey: "s3cr3t", Region: "eu-west-1"})
	if err != nil {
		t.Fatal(err)
	}
	block, _ := base64.StdEncoding.DecodeString(s3)
	want := "[default]\naws_access_key_id = AKIAX\naws_secret_access_key = s3cr3t\nregion = eu-west-1\n"
	if string(block) != want {
		t.Errorf("S3 block:\n%q\nwant\n%q", block, want)
	}
	if _, err := EncodeS3Credentials(S3Credentials{AccessKeyID: "A", Region: "r"}); err == nil || !strings.Contains(err.Error(), "aws_secret_access_key") {
		t.Errorf("missing secret: %v", err)
	}
	if err := ValidateEncodedCredentials("s3", "%%%"); err == nil || strings.Contains(err.Error(), "%%%") {
		t.Errorf("bad base64 must be refused without echoing: %v", err)
	}
}

func TestValidateBaseURL(t *testing.T) {
	ok := []string{
		"https://api.skysql.com", "https://api.example.com:8443/prefix",
		"http://localhost:8080", "http://LOCALHOST", "http://127.0.0.1", "http://127.10.20.30:9000",
		"http://[::1]:8080", "https://10.0.0.5",
	}
	for _, u := range ok {
		if err := ValidateBaseURL(u); err != nil {
			t.Errorf("%s rejected: %v", u, err)
		}
	}
	bad := map[string]string{
		"http://x":                     "base URL http://x: HTTPS is required for non-loopback hosts",
		"http://api.skysql.com":        "HTTPS is required for non-loopback hosts",
		"http://10.0.0.5":              "HTTPS is required",
		"http://128.0.0.1":             "HTTPS is required",
		"http://localhost.example.com": "HTTPS is required",
		"http://[::2]":                 "HTTPS is required",
		"ftp://x":                      "scheme",
		"api.skysql.com":               "missing scheme",
		"https://":                     "missing host",
		"":                             "empty",
		"https://a b.com":              "base URL",
		"https://x.com/?a=1":           "query",
		"https://x.com/#f":             "fragment",
	}
	for u, want := range bad {
		err := ValidateBaseURL(u)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ValidateBaseURL(%q) = %v, want %q", u, err, want)
		}
	}
	if err := ValidateBaseURL("https://user:hunter2@x.com"); err == nil || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("credentials in URL: %v", err)
	}
	if err := ValidateBaseURL("https://user:hunter2@x .com"); err == nil || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("credentials in unparsable URL: %v", err)
	}
	if _, err := New(Config{BaseURL: "http://example.com"}); err == nil || !strings.Contains(err.Error(), "HTTPS") {
		t.Errorf("client must refuse plain HTTP off loopback: %v", err)
	}
}

func TestWideNetwork(t *testing.T) {
	for ip, want := range map[string]string{
		"0.0.0.0/0":       "0.0.0.0/0 lets every address on the internet connect",
		"::/0":            "::/0 lets every address on the internet connect",
		"10.0.0.0/8":      "10.0.0.0/8 is wider than /16: every address in it may connect",
		"172.16.0.0/15":   "172.16.0.0/15 is wider than /16: every address in it may connect",
		"2001:db8::/32":   "2001:db8::/32 is wider than /48: every address in it may connect",
		"172.16.0.0/16":   "",
		"203.0.113.7":     "",
		"2001:db8::/48":   "",
		"not an address":  "",
		"198.51.100.0/24": "",
	} {
		if got := WideNetwork(ip); got != want {
			t.Errorf("WideNetwork(%q) = %q, want %q", ip, got, want)
		}
	}
}

// TestCreateRequestAllowListTwice: one network given twice, however
// spelled, is refused before sending, naming both entries.
func TestCreateRequestAllowListTwice(t *testing.T) {
	r := CreateServiceRequest{Name: "orders-db", Provider: "aws", Region: "us-east-1", ServiceType: "transactional", Topology: "es-single",
		Architecture: "amd64", Size: "sky-2x8", Storage: 100, Nodes: 1,
		AllowList: []AllowListEntry{{IP: "10.1.1.1"}, {IP: "2001:db8::/64"}, {IP: "10.1.1.1/32"}, {IP: "2001:DB8:0::/64"}}}
	err := r.Validate()
	for _, want := range []string{"allow_list[2].ip: 10.1.1.1/32 is listed twice (also entry 1, 10.1.1.1)", "allow_list[3].ip: 2001:db8::/64 is listed twice (also entry 2, 2001:db8::/64)"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%v, want %q", err, want)
		}
	}
}
