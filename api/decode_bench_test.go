package api

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func servicesBody(n int) []byte {
	var b strings.Builder
	b.WriteString("[")
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"id":"dbt%07d","name":"svc-%d","status":"ready","service_type":"transactional","topology":"es-single","provider":"gcp","region":"us-central1","architecture":"amd64","size":"sky-2x8","nodes":1,"version":"10.11","fqdn":"svc-%d.example.com","ssl_enabled":true,"outbound_ips":["203.0.113.%d"],"endpoints":[{"name":"primary","ports":[{"name":"readwrite","port":3306,"purpose":"readwrite"}],"allow_list":[{"ip":"198.51.100.0/24","comment":"office"}]}],"storage_volume":{"size":100,"iops":3000},"created_on":1785549600}`, i, i, i, i%250)
	}
	b.WriteString("]")
	return []byte(b.String())
}

// BenchmarkDecodeServices10k decodes a listing of 10,000 services field by
// field (what the client does), beside encoding/json into the same types.
func BenchmarkDecodeServices10k(b *testing.B) {
	body := servicesBody(10_000)
	b.Run("lenient", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		for range b.N {
			if _, _, err := decodeList[Service](body, "services"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding_json", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		for range b.N {
			var out []Service
			if err := json.Unmarshal(body, &out); err != nil {
				b.Fatal(err)
			}
		}
	})
}
