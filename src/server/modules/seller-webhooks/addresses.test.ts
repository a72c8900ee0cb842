import { describe, expect, test } from "vitest";
import { addressKind, checkReceiver, ReceiverRefused } from "#server/modules/seller-webhooks/addresses";

describe("addressKind", () => {
  test.each([
    ["8.8.8.8", "public"],
    ["93.184.216.34", "public"],
    ["127.0.0.1", "loopback"],
    ["127.255.0.9", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["172.32.0.1", "public"],
    ["192.168.1.1", "private"],
    ["169.254.169.254", "link-local"],
    ["100.64.0.1", "cgnat"],
    ["100.127.255.255", "cgnat"],
    ["100.128.0.1", "public"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "reserved"],
    ["255.255.255.255", "reserved"],
    ["::", "unspecified"],
    ["::1", "loopback"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local"],
    ["fc00::1", "private"],
    ["fd12:3456::1", "private"],
    ["ff02::1", "multicast"],
    ["2606:4700:4700::1111", "public"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::ffff:10.0.0.1", "private"],
    ["::ffff:169.254.169.254", "link-local"],
    ["::ffff:8.8.8.8", "public"],
    ["0:0:0:0:0:ffff:c0a8:0101", "private"],
    ["64:ff9b::10.0.0.1", "private"],
    ["64:ff9b::8.8.8.8", "public"],
    ["::127.0.0.1", "loopback"],
    ["2001:db8::1", "reserved"],
    ["not an address", "reserved"],
  ])("%s is %s", (address, kind) => {
    expect(addressKind(address)).toBe(kind);
  });
});

describe("checkReceiver", () => {
  const resolvesTo =
    (...addresses: string[]) =>
    async () =>
      addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));

  test("production takes only https URLs whose host resolves to public addresses", async () => {
    await expect(
      checkReceiver("https://hooks.example.com/x", true, resolvesTo("93.184.216.34")),
    ).resolves.toMatchObject({
      address: "93.184.216.34",
      family: 4,
    });
    await expect(
      checkReceiver("http://hooks.example.com/x", true, resolvesTo("93.184.216.34")),
    ).rejects.toThrow(/https/);
    for (const address of [
      "127.0.0.1",
      "10.0.0.5",
      "169.254.169.254",
      "::1",
      "::ffff:192.168.0.1",
      "100.64.1.1",
    ])
      await expect(
        checkReceiver("https://hooks.example.com/x", true, resolvesTo(address)),
        address,
      ).rejects.toBeInstanceOf(ReceiverRefused);
    // One private address among public ones is enough to refuse: a later lookup could pick it.
    await expect(
      checkReceiver("https://hooks.example.com/x", true, resolvesTo("93.184.216.34", "10.0.0.1")),
    ).rejects.toThrow(/private network/);
    await expect(checkReceiver("https://127.0.0.1/x", true)).rejects.toThrow(/loopback/);
    await expect(checkReceiver("https://[::ffff:127.0.0.1]/x", true)).rejects.toThrow(/loopback/);
    await expect(
      checkReceiver("https://user:pw@hooks.example.com/", true, resolvesTo("8.8.8.8")),
    ).rejects.toThrow(/password/);
  });

  test("outside production http and loopback receivers are allowed, private networks still refused", async () => {
    await expect(checkReceiver("http://127.0.0.1:4000/hook", false)).resolves.toMatchObject({
      address: "127.0.0.1",
    });
    await expect(
      checkReceiver("http://localhost:4000/hook", false, resolvesTo("::1")),
    ).resolves.toMatchObject({
      address: "::1",
      family: 6,
    });
    await expect(checkReceiver("http://10.0.0.1/hook", false)).rejects.toThrow(/private/);
    await expect(checkReceiver("ftp://127.0.0.1/hook", false)).rejects.toThrow(/https/);
  });
});
