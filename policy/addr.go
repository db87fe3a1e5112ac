package policy

import (
	"errors"
	"fmt"
	"net/netip"
	"strconv"
	"strings"
)

// special are the address ranges a host name may never lead to: only a
// rule that names the address (or a CIDR holding it) reaches them.
var special = []struct {
	prefix netip.Prefix
	what   string
}{
	{netip.MustParsePrefix("0.0.0.0/8"), "this-network"},
	{netip.MustParsePrefix("10.0.0.0/8"), "private"},
	{netip.MustParsePrefix("100.64.0.0/10"), "shared (CGNAT)"},
	{netip.MustParsePrefix("127.0.0.0/8"), "loopback"},
	{netip.MustParsePrefix("169.254.0.0/16"), "link-local (cloud metadata)"},
	{netip.MustParsePrefix("172.16.0.0/12"), "private"},
	{netip.MustParsePrefix("192.0.0.0/24"), "IETF protocol assignments"},
	{netip.MustParsePrefix("192.0.2.0/24"), "documentation"},
	{netip.MustParsePrefix("192.88.99.0/24"), "6to4 relay"},
	{netip.MustParsePrefix("192.168.0.0/16"), "private"},
	{netip.MustParsePrefix("198.18.0.0/15"), "benchmarking"},
	{netip.MustParsePrefix("198.51.100.0/24"), "documentation"},
	{netip.MustParsePrefix("203.0.113.0/24"), "documentation"},
	{netip.MustParsePrefix("224.0.0.0/4"), "multicast"},
	{netip.MustParsePrefix("240.0.0.0/4"), "reserved"},
	{netip.MustParsePrefix("::/128"), "unspecified"},
	{netip.MustParsePrefix("::1/128"), "loopback"},
	{netip.MustParsePrefix("64:ff9b:1::/48"), "local NAT64"},
	{netip.MustParsePrefix("100::/64"), "discard"},
	{netip.MustParsePrefix("2001::/32"), "Teredo"},
	{netip.MustParsePrefix("2001:db8::/32"), "documentation"},
	{netip.MustParsePrefix("fc00::/7"), "unique local (ULA)"},
	{netip.MustParsePrefix("fe80::/10"), "link-local"},
	{netip.MustParsePrefix("fec0::/10"), "site-local"},
	{netip.MustParsePrefix("ff00::/8"), "multicast"},
}

// Special says why an address is not a public one ("loopback", "private",
// ...), or "" for a public address. An IPv4 address inside IPv6 (mapped,
// compatible, NAT64, 6to4) is judged as that IPv4 address.
func Special(ip netip.Addr) string {
	ip = ip.WithZone("")
	if v4, ok := embeddedV4(ip); ok {
		if w := Special(v4); w != "" {
			return w + " (inside IPv6)"
		}
		if ip.Is4In6() {
			return ""
		}
	}
	for _, s := range special {
		if s.prefix.Contains(ip) {
			return s.what
		}
	}
	return ""
}

var (
	nat64  = netip.MustParsePrefix("64:ff9b::/96")
	sixto4 = netip.MustParsePrefix("2002::/16")
	compat = netip.MustParsePrefix("::/96")
	mapped = netip.MustParsePrefix("::ffff:0:0/96")
)

// embeddedV4 finds the IPv4 address an IPv6 address stands for.
func embeddedV4(ip netip.Addr) (netip.Addr, bool) {
	if !ip.Is6() {
		return netip.Addr{}, false
	}
	b := ip.As16()
	switch {
	case ip.Is4In6():
		return ip.Unmap(), true
	case nat64.Contains(ip):
		return netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]}), true
	case sixto4.Contains(ip):
		return netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]}), true
	case compat.Contains(ip) && ip != netip.IPv6Unspecified() && ip != netip.IPv6Loopback():
		return netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]}), true
	}
	return netip.Addr{}, false
}

// errHost is a host that is neither a name nor an address.
var errHost = errors.New("ambiguous host")

// ParseHost reads a URL's host as a resolver would: an IPv4 address in any
// spelling inet_aton(3) takes (decimal "2130706433", octal "0177.0.0.1",
// hex "0x7f.1", short "127.1"), a bracketed IPv6 address (no zone), or a
// host name (lower case, without a trailing dot). A name whose last label
// is a number but no address (such as "1.2.3.256") is an error, as in the
// WHATWG URL standard: resolvers disagree about it.
func ParseHost(host string) (name string, ip netip.Addr, err error) {
	if strings.HasPrefix(host, "[") {
		if !strings.HasSuffix(host, "]") || strings.Contains(host, "%") {
			return "", netip.Addr{}, errHost
		}
		ip, err := netip.ParseAddr(host[1 : len(host)-1])
		if err != nil || !ip.Is6() {
			return "", netip.Addr{}, errHost
		}
		return "", ip, nil
	}
	h := strings.TrimSuffix(strings.ToLower(host), ".")
	if h == "" || strings.ContainsAny(h, "%[]@:/\\ \t\r\n\x00") {
		return "", netip.Addr{}, errHost
	}
	labels := strings.Split(h, ".")
	if last := labels[len(labels)-1]; !numeric(last) {
		return h, netip.Addr{}, nil
	}
	v4, ok := inetAton(labels)
	if !ok {
		return "", netip.Addr{}, errHost
	}
	return "", v4, nil
}

// numeric: a label that reads as a number (decimal, 0x hex, octal).
func numeric(l string) bool {
	if l == "" {
		return false
	}
	if strings.HasPrefix(l, "0x") || strings.HasPrefix(l, "0X") {
		l = l[2:]
		if l == "" {
			return true // (a number, but no address: "0x" is refused)
		}
		for _, c := range l {
			if !strings.ContainsRune("0123456789abcdefABCDEF", c) {
				return false
			}
		}
		return true
	}
	for _, c := range l {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// inetAton parses 1 to 4 numeric parts, the last filling what is left.
func inetAton(parts []string) (netip.Addr, bool) {
	if len(parts) > 4 {
		return netip.Addr{}, false
	}
	var vals []uint64
	for _, p := range parts {
		if !numeric(p) {
			return netip.Addr{}, false
		}
		base, digits := 10, p
		switch {
		case strings.HasPrefix(p, "0x") || strings.HasPrefix(p, "0X"):
			base, digits = 16, p[2:]
		case len(p) > 1 && p[0] == '0':
			base, digits = 8, p[1:]
		}
		v, err := strconv.ParseUint(digits, base, 32)
		if err != nil {
			return netip.Addr{}, false
		}
		vals = append(vals, v)
	}
	var b [4]byte
	n := len(vals)
	for i := 0; i < n-1; i++ {
		if vals[i] > 255 {
			return netip.Addr{}, false
		}
		b[i] = byte(vals[i])
	}
	last, room := vals[n-1], uint(4-(n-1))
	if last >= 1<<(8*room) {
		return netip.Addr{}, false
	}
	for i := 3; i >= n-1; i-- {
		b[i] = byte(last)
		last >>= 8
	}
	return netip.AddrFrom4(b), true
}

// SpecialWithin is an error naming the first allow rule of n that reaches
// a special address (loopback, private, link-local...: by an address
// literal, or a CIDR overlapping a special range) where no allow rule of
// ceiling reaches it: inside one of its CIDRs, or the address and port of
// one of its URLs. A server applies it to a client's rules, its operator's being
// the ceiling. Rules by name need no check: a name never leads to a
// special address (Decision.CheckAddr).
func (n Network) SpecialWithin(ceiling Network) error {
	c, err := n.Compile()
	if err != nil {
		return err
	}
	cc, err := ceiling.Compile()
	if err != nil {
		return err
	}
	covered := func(cr rule, p netip.Prefix) bool {
		for _, r := range cc.allow {
			switch {
			case r.cidr.IsValid():
				if r.cidr.Bits() <= p.Bits() && r.cidr.Contains(p.Addr()) {
					return true
				}
			case r.addr.IsValid():
				if cr.addr.IsValid() && r.addr.Unmap() == cr.addr.Unmap() && r.port == cr.port {
					return true
				}
			}
		}
		return false
	}
	for _, r := range c.allow {
		var p netip.Prefix
		switch {
		case r.cidr.IsValid():
			p = r.cidr
		case r.addr.IsValid():
			p = netip.PrefixFrom(r.addr.Unmap(), r.addr.Unmap().BitLen())
		default:
			continue
		}
		why := ""
		if p.IsSingleIP() {
			why = Special(p.Addr())
		} else {
			for _, s := range special {
				if s.prefix.Overlaps(p) {
					why = s.what
					break
				}
			}
			for _, e := range []netip.Prefix{nat64, sixto4, compat, mapped} {
				if why == "" && e.Overlaps(p) {
					why = "IPv6 holding IPv4" // (which may be special ones)
				}
			}
		}
		if why != "" && !covered(r, p) {
			return fmt.Errorf("network: rule %s reaches %s addresses, which the operator's policy does not", r.src, why)
		}
	}
	return nil
}
