package keystore

import (
	"errors"
	"fmt"
	"strings"

	"github.com/skytui/skytui/api"
)

// The rules that tie a bucket to the credentials it takes: gs:// takes
// GCS service-account keys, s3:// S3 access keys. The backup form, the
// restore wizard and the commands for scripts all check and encode stored
// credentials through these.

// KindForScheme is the credential kind a bucket scheme needs ("" for a
// scheme that takes none skytui knows).
func KindForScheme(scheme string) string {
	switch scheme {
	case "gs":
		return KindGCS
	case "s3":
		return KindS3
	}
	return ""
}

// KindLabel is a kind as users read it: GCS, S3.
func KindLabel(kind string) string {
	switch kind {
	case KindGCS:
		return "GCS"
	case KindS3:
		return "S3"
	}
	return kind
}

// SchemeOf is a bucket URI's scheme ("gs", "s3"), or "".
func SchemeOf(uri string) string {
	s, _, _, _ := api.ParseBucketURI(strings.TrimSpace(uri))
	return s
}

// AddHint says how to store credentials for a scheme from the shell.
func AddHint(scheme string) string {
	switch scheme {
	case "gs":
		return "skytui creds add gcs NAME --key-file KEY.json"
	case "s3":
		return "skytui creds add s3 NAME"
	}
	return "skytui creds add s3 NAME (or gcs NAME --key-file KEY.json)"
}

// CheckForBucket checks a chosen credential against the bucket's scheme.
// kind is the chosen credential's kind when known ("" skips that check).
// The error is an *api.FieldError on the request field the credentials
// fill.
func CheckForBucket(uri, name, kind string) error {
	const field = "external_storage.bucket.credentials"
	scheme, _, _, _ := api.ParseBucketURI(uri)
	want := KindForScheme(scheme)
	if name == "" {
		if want != "" {
			return &api.FieldError{Field: field, Rule: "choose stored " + KindLabel(want) + " credentials for " + scheme + "://"}
		}
		return &api.FieldError{Field: field, Rule: "choose stored bucket credentials"}
	}
	if kind != "" && want != "" && kind != want {
		return &api.FieldError{Field: field, Rule: fmt.Sprintf("%s is a %s credential; %s:// needs %s credentials", name, KindLabel(kind), scheme, KindLabel(want))}
	}
	return nil
}

// EncodeForBucket reads the named bucket credentials and returns them
// base64-encoded as the bucket's scheme expects (gs:// a GCS
// service-account key, s3:// an S3 [default] block). Errors never contain
// the secret.
func EncodeForBucket(s *Store, name, uri string) (string, error) {
	if s == nil {
		return "", errors.New("no keystore is open: cannot read bucket credentials " + name)
	}
	cred, err := s.BucketCredential(name)
	if err != nil {
		return "", fmt.Errorf("bucket credentials %s: %w", name, err)
	}
	if want := KindForScheme(SchemeOf(uri)); cred.Kind() != want {
		return "", CheckForBucket(uri, name, cred.Kind())
	}
	switch c := cred.(type) {
	case GCSCredential:
		return api.EncodeGCSCredentials(c.KeyJSON)
	case S3Credential:
		return api.EncodeS3Credentials(c.API())
	}
	return "", fmt.Errorf("bucket credentials %s: unknown kind %q", name, cred.Kind())
}
