package sandbox

// PortAssigner is the one place that decides a service's TCP ports. The
// store calls it once, when a service becomes ready (with the store locked,
// in sandbox-time order), and shows the answer in the service's endpoints.
//
// The default answers the live service's numbers: 3306 read-write and 3307
// read-only on every service (each live service has its own host). With
// Options.SQL = SQLDemo the sandbox's own assigner opens a MySQL-protocol
// endpoint (package demosql) on 127.0.0.1 per service and answers its port;
// with SQLMariaDB the port is a real mariadbd's, decided once the server is
// up (see real.go). The service FQDNs (<id>.sandbox.localhost) reach
// loopback. Options.Ports replaces the default only with SQLNone.
type PortAssigner interface {
	AssignPorts(svc ServiceInfo) (Ports, error)
}

// ServiceInfo is what a PortAssigner learns about a service becoming ready.
type ServiceInfo struct {
	ID       string
	Name     string
	FQDN     string
	Provider string
	Username string
	Password string
}

// Ports are a service's read-write and read-only ports.
type Ports struct {
	ReadWrite int
	ReadOnly  int
}

// PortAssignerFunc adapts a function to PortAssigner.
type PortAssignerFunc func(ServiceInfo) (Ports, error)

// AssignPorts calls f.
func (f PortAssignerFunc) AssignPorts(s ServiceInfo) (Ports, error) { return f(s) }

// livePorts is the default assigner.
var livePorts PortAssigner = PortAssignerFunc(func(ServiceInfo) (Ports, error) {
	return Ports{ReadWrite: 3306, ReadOnly: 3307}, nil
})
