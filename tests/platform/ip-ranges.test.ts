import { describe, expect, test } from 'bun:test'
import { addressAllowed, classifyAddress, hostAddress } from '../../src/platform/ip-ranges'

describe('classifyAddress: IPv4', () => {
  test.each([
    ['8.8.8.8', 'public'],
    ['1.1.1.1', 'public'],
    ['9.255.255.255', 'public'],
    ['11.0.0.0', 'public'],
    ['100.63.255.255', 'public'],
    ['100.128.0.0', 'public'],
    ['172.15.255.255', 'public'],
    ['172.32.0.0', 'public'],
    ['192.167.255.255', 'public'],
    ['192.169.0.0', 'public'],
    ['169.253.255.255', 'public'],
    ['223.255.255.255', 'public'],
    ['10.0.0.0', 'private'],
    ['10.255.255.255', 'private'],
    ['127.0.0.1', 'private'],
    ['127.255.255.254', 'private'],
    ['172.16.0.0', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.0', 'private'],
    ['100.127.255.255', 'private'],
    ['192.0.0.8', 'private'],
    ['192.0.2.1', 'private'],
    ['198.18.0.1', 'private'],
    ['198.19.255.255', 'private'],
    ['203.0.113.7', 'private'],
    ['0.0.0.0', 'never'],
    ['0.255.255.255', 'never'],
    ['169.254.0.0', 'never'],
    ['169.254.169.254', 'never'],
    ['169.254.255.255', 'never'],
    ['100.100.100.200', 'never'],
    ['168.63.129.16', 'never'],
    ['224.0.0.1', 'never'],
    ['239.255.255.255', 'never'],
    ['240.0.0.1', 'never'],
    ['255.255.255.255', 'never'],
  ])('%s is %s', (ip, kind) => {
    expect(classifyAddress(ip)).toBe(kind as never)
  })
})

describe('classifyAddress: IPv6', () => {
  test.each([
    ['2606:4700:4700::1111', 'public'],
    ['2001:4860:4860::8888', 'public'],
    ['2a00:1450:4001:80b::200e', 'public'],
    ['::1', 'private'],
    ['0:0:0:0:0:0:0:1', 'private'],
    ['fc00::1', 'private'],
    ['fd12:3456:789a::1', 'private'],
    ['fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'private'],
    ['fec0::1', 'private'],
    ['2001:db8::1', 'private'],
    ['2001::1', 'private'],
    ['64:ff9b:1::1', 'private'],
    ['::', 'never'],
    ['fe80::1', 'never'],
    ['fe80::1%eth0', 'never'],
    ['febf:ffff::1', 'never'],
    ['fd00:ec2::254', 'never'],
    ['ff02::1', 'never'],
    ['4000::1', 'never'],
    ['1::', 'never'],
  ])('%s is %s', (ip, kind) => {
    expect(classifyAddress(ip)).toBe(kind as never)
  })

  test.each([
    ['::ffff:127.0.0.1', 'private'],
    ['::ffff:7f00:1', 'private'],
    ['::ffff:10.1.2.3', 'private'],
    ['0:0:0:0:0:ffff:c0a8:0101', 'private'],
    ['::ffff:169.254.169.254', 'never'],
    ['::ffff:a9fe:a9fe', 'never'],
    ['::ffff:0.0.0.0', 'never'],
    ['::ffff:8.8.8.8', 'public'],
    ['::127.0.0.1', 'private'],
    ['::a9fe:a9fe', 'never'],
    ['64:ff9b::a9fe:a9fe', 'never'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['64:ff9b::8.8.8.8', 'public'],
    ['2002:7f00:1::1', 'private'],
    ['2002:a9fe:a9fe::', 'never'],
    ['2002:808:808::1', 'public'],
  ])('%s, which carries an IPv4 address, is %s', (ip, kind) => {
    expect(classifyAddress(ip)).toBe(kind as never)
  })

  test.each([
    '',
    'localhost',
    'example.com',
    '1.2.3',
    '1.2.3.4.5',
    '256.0.0.1',
    '01.2.3.4',
    '0x7f.0.0.1',
    '1:2:3:4:5:6:7:8:9',
    '1::2::3',
    ':1::',
    'g::1',
    '12345::',
    '1:2:3:4:5:6:7::8',
    '::ffff:1.2.3.256',
    '[::1]',
  ])('%p is not an address', (text) => {
    expect(classifyAddress(text)).toBeNull()
  })
})

describe('addressAllowed', () => {
  test('deny: public addresses only', () => {
    expect(addressAllowed('93.184.216.34', 'deny')).toBe(true)
    expect(addressAllowed('2606:4700::1', 'deny')).toBe(true)
    for (const ip of ['127.0.0.1', '10.0.0.1', '::1', '::ffff:192.168.0.1', '169.254.169.254', 'fd00:ec2::254', '::']) {
      expect(addressAllowed(ip, 'deny'), ip).toBe(false)
    }
  })

  test('allow: private addresses too, but never link-local, metadata, unspecified, multicast or reserved', () => {
    for (const ip of ['127.0.0.1', '10.0.0.1', '::1', '::ffff:192.168.0.1', 'fd12::1', '93.184.216.34']) expect(addressAllowed(ip, 'allow'), ip).toBe(true)
    for (const ip of [
      '169.254.169.254',
      '::ffff:169.254.169.254',
      'fd00:ec2::254',
      'fe80::1',
      '100.100.100.200',
      '0.0.0.0',
      '::',
      '224.0.0.1',
      '255.255.255.255',
    ]) {
      expect(addressAllowed(ip, 'allow'), ip).toBe(false)
    }
  })

  test('whatever is not an address is refused', () => {
    expect(addressAllowed('localhost', 'allow')).toBe(false)
  })
})

describe('hostAddress', () => {
  test('the address a URL host names literally; null for a domain name', () => {
    expect(hostAddress(new URL('http://[::ffff:127.0.0.1]:8080/').hostname)).toBe('::ffff:7f00:1')
    expect(hostAddress(new URL('http://0x7f.1/').hostname)).toBe('127.0.0.1')
    expect(hostAddress(new URL('http://2130706433/').hostname)).toBe('127.0.0.1')
    expect(hostAddress(new URL('http://api.example.com/').hostname)).toBeNull()
    expect(hostAddress(new URL('http://localhost/').hostname)).toBeNull()
  })
})
