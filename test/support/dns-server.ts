import { createSocket, type RemoteInfo } from 'node:dgram';
import { type AddressInfo, isIPv4 } from 'node:net';

// A DNS server the test controls, on loopback (UDP): it answers TXT, CNAME, A and AAAA questions
// from the records a test sets, NS for any top-level domain (as public DNS would), NXDOMAIN for
// names it has none for, an empty answer for a name that has records of another type; cut off, it
// answers NXDOMAIN to everything (a resolver that cannot see public DNS); made silent, nothing at
// all. Enough of RFC 1035 for Node's resolver.

const TYPES = { A: 1, NS: 2, CNAME: 5, TXT: 16, AAAA: 28 } as const;
const CLASS_IN = 1;
const NXDOMAIN = 3;

export interface TestDnsServer {
  /** `127.0.0.1:<port>`: what DNS_SERVERS takes. */
  address: string;
  /** The TXT records of a name: each record its strings (a record of several is one split value). */
  setTxt(name: string, records: readonly (string | readonly string[])[]): void;
  setCname(name: string, target: string): void;
  /** The A and AAAA records of a name (dotted IPv4, or IPv6 written in full or with `::`). */
  setAddresses(name: string, addresses: readonly string[]): void;
  /** Forgets every record of a name. */
  clear(name: string): void;
  /** While true, questions are read and never answered. */
  silent: boolean;
  /** While true, every question is answered NXDOMAIN, top-level domains' too. */
  cutOff: boolean;
  /** While true, questions about a top-level domain go unanswered (the others as usual). */
  topLevelSilent: boolean;
  /** Questions received, `TYPE name` each. */
  readonly questions: string[];
  close(): Promise<void>;
}

interface Question {
  name: string;
  type: number;
  /** Where the question section ends in the query. */
  end: number;
}

function readQuestion(query: Buffer): Question | undefined {
  const labels: string[] = [];
  let offset = 12;
  for (;;) {
    const length = query[offset];
    if (length === undefined) return undefined;
    offset += 1;
    if (length === 0) break;
    labels.push(query.subarray(offset, offset + length).toString('latin1'));
    offset += length;
  }
  if (offset + 4 > query.length) return undefined;
  return { name: labels.join('.').toLowerCase(), type: query.readUInt16BE(offset), end: offset + 4 };
}

function encodeName(name: string): Buffer {
  const parts = name
    .split('.')
    .filter(Boolean)
    .map((label) => {
      const bytes = Buffer.from(label, 'latin1');
      return Buffer.concat([Buffer.from([bytes.length]), bytes]);
    });
  return Buffer.concat([...parts, Buffer.from([0])]);
}

function addressData(address: string): Buffer {
  if (isIPv4(address)) return Buffer.from(address.split('.').map(Number));
  const [head = '', tail = ''] = address.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const missing = 8 - groups(head).length - groups(tail).length;
  const all = [...groups(head), ...Array<string>(missing).fill('0'), ...groups(tail)];
  const data = Buffer.alloc(16);
  for (const [index, group] of all.entries()) data.writeUInt16BE(Number.parseInt(group, 16), index * 2);
  return data;
}

function record(type: number, data: Buffer): Buffer {
  const head = Buffer.alloc(12);
  head.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
  head.writeUInt16BE(type, 2);
  head.writeUInt16BE(CLASS_IN, 4);
  head.writeUInt32BE(60, 6);
  head.writeUInt16BE(data.length, 10);
  return Buffer.concat([head, data]);
}

const txtData = (strings: readonly string[]): Buffer =>
  Buffer.concat(
    strings.map((text) => {
      const bytes = Buffer.from(text, 'utf8');
      return Buffer.concat([Buffer.from([bytes.length]), bytes]);
    }),
  );

function reply(query: Buffer, question: Question, answers: Buffer[], rcode: number): Buffer {
  const header = Buffer.alloc(12);
  query.copy(header, 0, 0, 2); // the id
  const recursionDesired = (query[2] ?? 0) & 0x01;
  header[2] = 0x80 | 0x04 | recursionDesired; // a response, authoritative
  header[3] = 0x80 | rcode; // recursion available
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(answers.length, 6);
  return Buffer.concat([header, query.subarray(12, question.end), ...answers]);
}

/** Starts the server on a free loopback port. */
export async function startDnsServer(): Promise<TestDnsServer> {
  const txt = new Map<string, (readonly string[])[]>();
  const cname = new Map<string, string>();
  const addresses = new Map<string, readonly string[]>();
  const questions: string[] = [];
  const socket = createSocket('udp4');
  const server: TestDnsServer = {
    address: '',
    silent: false,
    cutOff: false,
    topLevelSilent: false,
    questions,
    setTxt: (name, records) =>
      void txt.set(
        name.toLowerCase(),
        records.map((value) => (typeof value === 'string' ? [value] : value)),
      ),
    setCname: (name, target) => void cname.set(name.toLowerCase(), target),
    setAddresses: (name, list) => void addresses.set(name.toLowerCase(), list),
    clear: (name) => {
      txt.delete(name.toLowerCase());
      cname.delete(name.toLowerCase());
      addresses.delete(name.toLowerCase());
    },
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
  socket.on('message', (query: Buffer, from: RemoteInfo) => {
    const question = readQuestion(query);
    if (!question) return;
    const type = Object.entries(TYPES).find(([, code]) => code === question.type)?.[0] ?? 'OTHER';
    questions.push(`${type} ${question.name}`);
    if (server.silent) return;
    const answered = (answers: Buffer[], known: boolean) =>
      socket.send(reply(query, question, answers, known ? 0 : NXDOMAIN), from.port, from.address);
    if (server.cutOff) return answered([], false);
    const topLevel = question.name !== '' && !question.name.includes('.');
    if (topLevel && server.topLevelSilent) return;
    if (topLevel) {
      const ns = question.type === TYPES.NS ? [record(TYPES.NS, encodeName(`a.nic.${question.name}`))] : [];
      return answered(ns, true);
    }
    const texts = txt.get(question.name);
    const target = cname.get(question.name);
    const held = addresses.get(question.name);
    const family = question.type === TYPES.A ? 4 : question.type === TYPES.AAAA ? 6 : 0;
    const answers =
      question.type === TYPES.TXT
        ? (texts ?? []).map((strings) => record(TYPES.TXT, txtData(strings)))
        : question.type === TYPES.CNAME && target !== undefined
          ? [record(TYPES.CNAME, encodeName(target))]
          : family !== 0
            ? (held ?? [])
                .filter((address) => (family === 4) === isIPv4(address))
                .map((address) => record(question.type, addressData(address)))
            : [];
    answered(answers, texts !== undefined || target !== undefined || held !== undefined);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  server.address = `127.0.0.1:${(socket.address() as AddressInfo).port}`;
  return server;
}
