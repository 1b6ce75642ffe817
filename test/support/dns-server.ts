import { createSocket, type RemoteInfo } from 'node:dgram';
import type { AddressInfo } from 'node:net';

// A DNS server the test controls, on loopback (UDP): it answers TXT and CNAME questions from the
// records a test sets, NXDOMAIN for names it has none for, an empty answer for a name that has
// records of another type, and, made silent, nothing at all. Enough of RFC 1035 for Node's resolver.

const TYPES = { CNAME: 5, TXT: 16 } as const;
const CLASS_IN = 1;
const NXDOMAIN = 3;

export interface TestDnsServer {
  /** `127.0.0.1:<port>`: what DNS_SERVERS takes. */
  address: string;
  /** The TXT records of a name: each record its strings (a record of several is one split value). */
  setTxt(name: string, records: readonly (string | readonly string[])[]): void;
  setCname(name: string, target: string): void;
  /** Forgets every record of a name. */
  clear(name: string): void;
  /** While true, questions are read and never answered. */
  silent: boolean;
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
  const questions: string[] = [];
  const socket = createSocket('udp4');
  const server: TestDnsServer = {
    address: '',
    silent: false,
    questions,
    setTxt: (name, records) =>
      void txt.set(
        name.toLowerCase(),
        records.map((value) => (typeof value === 'string' ? [value] : value)),
      ),
    setCname: (name, target) => void cname.set(name.toLowerCase(), target),
    clear: (name) => {
      txt.delete(name.toLowerCase());
      cname.delete(name.toLowerCase());
    },
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
  socket.on('message', (query: Buffer, from: RemoteInfo) => {
    const question = readQuestion(query);
    if (!question) return;
    const type = question.type === TYPES.TXT ? 'TXT' : question.type === TYPES.CNAME ? 'CNAME' : 'OTHER';
    questions.push(`${type} ${question.name}`);
    if (server.silent) return;
    const texts = txt.get(question.name);
    const target = cname.get(question.name);
    const answers =
      question.type === TYPES.TXT
        ? (texts ?? []).map((strings) => record(TYPES.TXT, txtData(strings)))
        : question.type === TYPES.CNAME && target !== undefined
          ? [record(TYPES.CNAME, encodeName(target))]
          : [];
    const known = texts !== undefined || target !== undefined;
    socket.send(reply(query, question, answers, known ? 0 : NXDOMAIN), from.port, from.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  server.address = `127.0.0.1:${(socket.address() as AddressInfo).port}`;
  return server;
}
