package api

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// ValidateGCSKey checks that doc is a service-account JSON key document:
// a JSON object with "type": "service_account", "client_email" and
// "private_key". Messages name the field, never a value.
func ValidateGCSKey(doc []byte) error {
	var m map[string]any
	if err := json.Unmarshal(doc, &m); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return fmt.Errorf("key is not valid JSON (syntax error at byte %d)", se.Offset)
		}
		return fmt.Errorf("key is not a JSON object")
	}
	if m == nil {
		return fmt.Errorf("key is not a JSON object")
	}
	if t, _ := m["type"].(string); t != "service_account" {
		if _, ok := m["type"]; !ok {
			return fmt.Errorf(`field "type" is missing (want "service_account")`)
		}
		return fmt.Errorf(`field "type" must be "service_account"`)
	}
	for _, f := range []string{"client_email", "private_key"} {
		if v, _ := m[f].(string); strings.TrimSpace(v) == "" {
			return fmt.Errorf("field %q is missing or empty", f)
		}
	}
	return nil
}

// EncodeGCSCredentials returns the base64 of the compacted service-account
// key document, as gs:// targets expect.
func EncodeGCSCredentials(doc []byte) (string, error) {
	if err := ValidateGCSKey(doc); err != nil {
		return "", err
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, doc); err != nil {
		return "", err
	}
	return base64.StdEncoding.EncodeToString(buf.Bytes()), nil
}

// S3Credentials are the parts of an s3:// credentials block.
type S3Credentials struct {
	AccessKeyID     string
	SecretAccessKey string
	Region          string
}

var s3RegionRe = regexp.MustCompile(`^[a-z]{2}(-[a-z]+)+-[0-9]{1,2}$`)

// Validate checks that every part is present without spaces or control
// characters and that the region looks like one (us-east-1). Messages name
// the field, never a secret.
func (c S3Credentials) Validate() error {
	for _, f := range []struct{ name, v string }{
		{"aws_access_key_id", c.AccessKeyID},
		{"aws_secret_access_key", c.SecretAccessKey},
		{"region", c.Region},
	} {
		if f.v == "" {
			return fmt.Errorf("field %q is required", f.name)
		}
		if strings.ContainsFunc(f.v, func(r rune) bool { return r < 0x21 || r == 0x7f }) {
			return fmt.Errorf("field %q contains spaces or control characters", f.name)
		}
	}
	if !s3RegionRe.MatchString(c.Region) {
		return fmt.Errorf("field \"region\" %q does not look like a region (e.g. us-east-1)", c.Region)
	}
	return nil
}

// Block is the [default] text block of the credentials.
func (c S3Credentials) Block() string {
	return fmt.Sprintf("[default]\naws_access_key_id = %s\naws_secret_access_key = %s\nregion = %s\n",
		c.AccessKeyID, c.SecretAccessKey, c.Region)
}

// EncodeS3Credentials returns the base64 of the [default] block.
func EncodeS3Credentials(c S3Credentials) (string, error) {
	if err := c.Validate(); err != nil {
		return "", err
	}
	return base64.StdEncoding.EncodeToString([]byte(c.Block())), nil
}

// ParseS3Block reads a [default] block back into its parts.
func ParseS3Block(block string) (S3Credentials, error) {
	var c S3Credentials
	section := ""
	for _, line := range strings.Split(block, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, ";") {
			continue
		}
		if strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]") {
			section = strings.TrimSpace(line[1 : len(line)-1])
			continue
		}
		if section != "default" {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			return c, fmt.Errorf("a line is not name = value")
		}
		switch strings.TrimSpace(k) {
		case "aws_access_key_id":
			c.AccessKeyID = strings.TrimSpace(v)
		case "aws_secret_access_key":
			c.SecretAccessKey = strings.TrimSpace(v)
		case "region":
			c.Region = strings.TrimSpace(v)
		}
	}
	if section == "" && c.AccessKeyID == "" {
		return c, fmt.Errorf("no [default] section")
	}
	return c, c.Validate()
}

// ValidateEncodedCredentials checks base64 credentials for a bucket scheme
// ("gs" or "s3"). The message never contains the secret.
func ValidateEncodedCredentials(scheme, b64 string) error {
	raw, err := base64.StdEncoding.DecodeString(strings.TrimSpace(b64))
	if err != nil {
		return fmt.Errorf("must be base64-encoded")
	}
	switch scheme {
	case "gs":
		if err := ValidateGCSKey(raw); err != nil {
			return fmt.Errorf("must be a base64-encoded service-account JSON key (%v)", err)
		}
	case "s3":
		if _, err := ParseS3Block(string(raw)); err != nil {
			return fmt.Errorf("must be a base64-encoded [default] block with aws_access_key_id, aws_secret_access_key and region (%v)", err)
		}
	}
	return nil
}
