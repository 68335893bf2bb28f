import ipaddr from "ipaddr.js";

/**
 * The block a client address belongs to, for per-client limits: one address gives a client many
 * neighbours for free (a /24 of IPv4, a /64 of IPv6, all of loopback), so the limit counts blocks.
 * Ten loopback addresses used to get ten playground allowances (issue 23).
 */
export function addressBlock(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  let ip = ipaddr.parse(address);
  if (ip.kind() === "ipv6" && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  if (ip.range() === "loopback") return "loopback";
  const bytes = ip.toByteArray();
  return ip.kind() === "ipv4" ? `${bytes.slice(0, 3).join(".")}.0/24` : `${ipaddr.fromByteArray([...bytes.slice(0, 8), ...Array(8).fill(0)]).toString()}/64`;
}
