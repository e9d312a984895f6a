package keystore

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestCompact(t *testing.T) {
	cases := map[string]string{
		"{ \"a\" : 1,\n \"b\": [1, 2] }": `{"a":1,"b":[1,2]}`,
		"[ 1 , 2 ]":                      `[1,2]`,
		" 123 ":                          " 123 ", // not an object/array: unchanged
		"plain-api-key":                  "plain-api-key",
		"{ not json":                     "{ not json",
		`"quoted"`:                       `"quoted"`,
	}
	for in, want := range cases {
		if got := Compact(in); got != want {
			t.Errorf("Compact(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestFingerprint(t *testing.T) {
	// SHA-256("abc") = ba7816bf8f01cfea...
	if got := Fingerprint("abc"); got != "sha256:ba7816bf" {
		t.Fatalf("Fingerprint(abc) = %q", got)
	}
	if Fingerprint("abd") == Fingerprint("abc") {
		t.Fatal("different secrets, same fingerprint")
	}
	if Fingerprint("") != "" {
		t.Fatal("empty secret must have no fingerprint")
	}
}

func TestSizeCheckAfterCompaction(t *testing.T) {
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, fakeGCSKey(t, 1270), "", strings.Repeat(" ", 16)); err != nil {
		t.Fatal(err)
	}
	key := pretty.Bytes()
	compact := Compact(string(key))
	if len(key) <= LimitWindows || len(compact) >= LimitWindows || len(compact) < 2300 {
		t.Fatalf("fixture: pretty %d, compact %d bytes; want pretty > %d > compact >= 2300", len(key), len(compact), LimitWindows)
	}
	f := newFake("keyring", nil)
	f.max, f.label = LimitWindows, "Windows Credential Manager (OS keyring)"
	s, err := Open(Options{Getenv: mapEnv(nil), Backends: []Backend{f}})
	if err != nil {
		t.Fatal(err)
	}
	// Fits only because it is compacted first.
	if err := s.PutBucketCredential(GCSCredential{Name: "gcs1", KeyJSON: key}); err != nil {
		t.Fatalf("2.4 KB key rejected: %v", err)
	}
	if v, _ := f.value("bucket/gcs1"); v != compact {
		t.Fatal("stored value is not the compacted raw JSON document")
	}
	// Too big even compacted: a clear error naming the limit and backend.
	big := fakeGCSKey(t, 1800)
	err = s.PutBucketCredential(GCSCredential{Name: "gcs2", KeyJSON: big})
	var se *SizeError
	if !errors.Is(err, ErrTooLarge) || !errors.As(err, &se) {
		t.Fatalf("err = %v, want SizeError", err)
	}
	for _, want := range []string{"2560-byte limit", "Windows Credential Manager", `"bucket/gcs2"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if strings.Contains(err.Error(), "PRIVATE KEY") {
		t.Fatal("size error leaks the secret")
	}
	if _, ok := f.value("bucket/gcs2"); ok {
		t.Fatal("oversized value was written")
	}
	if got, _ := s.ListBucketCredentials(); len(got) != 1 {
		t.Fatalf("index lists a failed write: %+v", got)
	}
	// Generic Set is checked too.
	f.max = 10
	if err := s.Set("x", strings.Repeat("a", 11)); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "11 bytes, over the 10-byte limit") {
		t.Fatalf("generic Set = %v", err)
	}
	if err := s.Set("x", strings.Repeat("a", 10)); err != nil {
		t.Fatalf("at the limit: %v", err)
	}
}

func TestGCSValidationNamesField(t *testing.T) {
	good := map[string]any{}
	if err := json.Unmarshal(fakeGCSKey(t, 100), &good); err != nil {
		t.Fatal(err)
	}
	secret := good["private_key"].(string)
	mut := func(f func(m map[string]any)) []byte {
		m := map[string]any{}
		for k, v := range good {
			m[k] = v
		}
		f(m)
		b, _ := json.Marshal(m)
		return b
	}
	cases := []struct {
		name string
		doc  []byte
		want string
	}{
		{"not json", []byte(`{"private_key": "` + secret[:40]), "not valid JSON"},
		{"array", []byte(`[1,2]`), "not a JSON object"},
		{"null", []byte(`null`), "not a JSON object"},
		{"no type", mut(func(m map[string]any) { delete(m, "type") }), `field "type" is missing`},
		{"wrong type", mut(func(m map[string]any) { m["type"] = "authorized_user" }), `field "type" must be "service_account"`},
		{"no email", mut(func(m map[string]any) { delete(m, "client_email") }), `field "client_email"`},
		{"empty key", mut(func(m map[string]any) { m["private_key"] = "" }), `field "private_key"`},
		{"no key", mut(func(m map[string]any) { delete(m, "private_key") }), `field "private_key"`},
	}
	for _, c := range cases {
		err := GCSCredential{Name: "g", KeyJSON: c.doc}.Validate()
		if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", c.name, err, c.want)
			continue
		}
		if strings.Contains(err.Error(), secret[28:60]) {
			t.Errorf("%s: error leaks the private key", c.name)
		}
	}
	if err := (GCSCredential{Name: "g", KeyJSON: mut(func(map[string]any) {})}).Validate(); err != nil {
		t.Fatalf("valid key rejected: %v", err)
	}
	if err := (GCSCredential{Name: "bad name", KeyJSON: mut(func(map[string]any) {})}).Validate(); !errors.Is(err, ErrInvalid) {
		t.Fatalf("bad name accepted: %v", err)
	}
}

func TestS3ValidationNamesField(t *testing.T) {
	ok := S3Credential{Name: "s3a", AccessKeyID: "AKIAIOSFODNN7EXAMPLE", SecretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", Region: "us-east-1"}
	if err := ok.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, r := range []string{"eu-central-2", "us-gov-west-1", "ap-southeast-3"} {
		c := ok
		c.Region = r
		if err := c.Validate(); err != nil {
			t.Errorf("region %s rejected: %v", r, err)
		}
	}
	cases := []struct {
		mut  func(*S3Credential)
		want string
	}{
		{func(c *S3Credential) { c.AccessKeyID = "" }, `field "aws_access_key_id" is required`},
		{func(c *S3Credential) { c.SecretAccessKey = "" }, `field "aws_secret_access_key" is required`},
		{func(c *S3Credential) { c.Region = "" }, `field "region" is required`},
		{func(c *S3Credential) { c.SecretAccessKey = "wJalr XUtn" }, `field "aws_secret_access_key" contains spaces`},
		{func(c *S3Credential) { c.Region = "US-EAST-1" }, `field "region"`},
		{func(c *S3Credential) { c.Region = "useast" }, `field "region"`},
		{func(c *S3Credential) { c.Name = "" }, `S3 credential name`},
	}
	for _, c := range cases {
		x := ok
		c.mut(&x)
		err := x.Validate()
		if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("err = %v, want %q", err, c.want)
		}
		if err != nil && strings.Contains(err.Error(), "XUtn") {
			t.Errorf("error leaks the secret: %v", err)
		}
	}
}

func TestBucketCredentialsAndIndex(t *testing.T) {
	f := newFake("keyring", nil)
	s, _ := Open(Options{Getenv: mapEnv(nil), Backends: []Backend{f}})
	gkey := fakeGCSKey(t, 1270)
	s3 := S3Credential{Name: "aws-prod", AccessKeyID: "AKIAIOSFODNN7EXAMPLE", SecretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", Region: "eu-west-1"}
	if err := s.PutBucketCredential(GCSCredential{Name: "gcs-backups", KeyJSON: gkey}); err != nil {
		t.Fatal(err)
	}
	if err := s.PutBucketCredential(&s3); err != nil {
		t.Fatal(err)
	}
	list, err := s.ListBucketCredentials()
	if err != nil {
		t.Fatal(err)
	}
	want := []CredentialInfo{{"aws-prod", KindS3, "keyring", "fake keyring"}, {"gcs-backups", KindGCS, "keyring", "fake keyring"}}
	if len(list) != 2 || list[0] != want[0] || list[1] != want[1] {
		t.Fatalf("list = %+v", list)
	}
	ix, _ := f.value(indexName)
	if strings.Contains(ix, "wJalr") || strings.Contains(ix, "PRIVATE") {
		t.Fatal("index holds secret values")
	}
	got, err := s.BucketCredential("gcs-backups")
	if err != nil {
		t.Fatal(err)
	}
	g, ok := got.(GCSCredential)
	if !ok || string(g.KeyJSON) != Compact(string(gkey)) || g.ClientEmail() != "backup-writer@skytui-test-project.iam.gserviceaccount.com" {
		t.Fatalf("GCS round trip: %T", got)
	}
	got, err = s.BucketCredential("aws-prod")
	if err != nil || got != (S3Credential(s3)) {
		t.Fatalf("S3 round trip: %+v, %v", got, err)
	}
	// Invalid credentials are not stored.
	if err := s.PutBucketCredential(S3Credential{Name: "x", AccessKeyID: "a", Region: "us-east-1"}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("invalid S3 stored: %v", err)
	}
	if _, err := s.DeleteBucketCredential("aws-prod"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.BucketCredential("aws-prod"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("after delete: %v", err)
	}
	if _, err := s.DeleteBucketCredential("aws-prod"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("second delete: %v", err)
	}
	list, _ = s.ListBucketCredentials()
	if len(list) != 1 || list[0].Name != "gcs-backups" {
		t.Fatalf("list after delete = %+v", list)
	}
	// An index entry whose secret vanished (e.g. keyring wiped) is cleaned.
	_ = f.Delete("bucket/gcs-backups")
	if _, err := s.DeleteBucketCredential("gcs-backups"); err != nil {
		t.Fatalf("delete of dangling index entry: %v", err)
	}
	if list, _ = s.ListBucketCredentials(); len(list) != 0 {
		t.Fatalf("list = %+v", list)
	}
}

func TestEncryptionKeys(t *testing.T) {
	f := newFake("keyctl", nil)
	s, _ := Open(Options{Getenv: mapEnv(nil), Backends: []Backend{f}})
	if err := s.PutEncryptionKey("restore-2024", "0123456789abcdef0123456789abcdef"); err != nil {
		t.Fatal(err)
	}
	if err := s.PutEncryptionKey("restore-2024", "fedcba9876543210fedcba9876543210"); err != nil {
		t.Fatal(err)
	}
	if v, err := s.EncryptionKey("restore-2024"); err != nil || v != "fedcba9876543210fedcba9876543210" {
		t.Fatalf("EncryptionKey = %q, %v", v, err)
	}
	if names, _ := s.ListEncryptionKeys(); len(names) != 1 || names[0] != "restore-2024" {
		t.Fatalf("names = %v", names)
	}
	if err := s.PutEncryptionKey("k2", " "); !errors.Is(err, ErrInvalid) {
		t.Fatalf("empty key accepted: %v", err)
	}
	if _, err := s.DeleteEncryptionKey("restore-2024"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.EncryptionKey("restore-2024"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("after delete: %v", err)
	}
	if names, _ := s.ListEncryptionKeys(); len(names) != 0 {
		t.Fatalf("names = %v", names)
	}
	if _, err := s.DeleteEncryptionKey("restore-2024"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("second delete = %v", err)
	}
}
