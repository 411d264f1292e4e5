// A static file server for the built site (web/dist), on localhost only.
//
//   node web/serve.mjs [--port 8080] [--dir web/dist]
// Imported by the browser tests: serve({dir, port: 0}) resolves to {url, close}.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.bin': 'application/octet-stream',
  '.csv': 'text/csv; charset=utf-8',
  '.png': 'image/png',
};

export function serve({ dir, port = 8080, host = '127.0.0.1' }) {
  const rootDir = path.resolve(dir);
  const server = http.createServer((request, response) => {
    const url = new URL(request.url, 'http://localhost');
    let file = path.join(rootDir, decodeURIComponent(url.pathname));
    if (!file.startsWith(rootDir)) {
      response.writeHead(403).end('forbidden');
      return;
    }
    if (fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
    fs.readFile(file, (error, data) => {
      if (error) {
        response.writeHead(404, { 'content-type': 'text/plain' }).end(`not found: ${url.pathname}`);
        return;
      }
      response.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-cache' });
      response.end(data);
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const { port: actual } = server.address();
      resolve({ url: `http://${host}:${actual}/`, close: () => new Promise((done) => server.close(done)) });
    });
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const web = path.dirname(fileURLToPath(import.meta.url));
  const { values } = parseArgs({ options: { port: { type: 'string', default: '8080' }, dir: { type: 'string', default: path.join(web, 'dist') } } });
  if (!fs.existsSync(path.join(values.dir, 'index.html'))) {
    console.error(`serve: ${values.dir} has no index.html: build the site first (node web/build.mjs)`);
    process.exit(1);
  }
  const { url } = await serve({ dir: values.dir, port: Number(values.port) });
  console.log(`sysgym playground: ${url}  (docs page with players: ${url}docs.html; Ctrl-C stops)`);
}
