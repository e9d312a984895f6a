package sandbox

// PortAssigner is the one place that decides a service's TCP ports. The
// store calls it once, when a service becomes ready (with the store locked,
// in sandbox-time order), and shows the answer in the service's endpoints.
//
// The default answers the live service's numbers: 3306 read-write and 3307
// read-only on every service (each live service has its own host). The
// replication work replaces it (Options.Ports) with an assigner that opens a
// real MySQL-protocol listener on 127.0.0.1 per service and answers its
// port; the service FQDNs (<id>.sandbox.localhost) resolve to loopback.
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
