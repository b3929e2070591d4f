// A webhook receiver for local development: verifies each delivery with the `standardwebhooks`
// package, as a merchant's server would, and prints the event.
//   WEBHOOK_SECRET=whsec_… node scripts/webhook-receiver.mjs [port]   (default 3000, path /hooks)
import { createServer } from "node:http";
import { Webhook } from "standardwebhooks";

const secret = process.env.WEBHOOK_SECRET;
if (!secret) throw new Error("set WEBHOOK_SECRET to the endpoint's whsec_… secret");
const webhook = new Webhook(secret);
const port = Number(process.argv[2] ?? 3000);

createServer((req, res) => {
  let body = "";
  req.on("data", (chunk) => (body += chunk));
  req.on("end", () => {
    try {
      // Throws unless the signature, the id and a recent timestamp check out.
      const event = webhook.verify(body, req.headers);
      console.log(`verified ${event.type} ${event.id}`, JSON.stringify(event.data.object));
      res.writeHead(200).end();
    } catch (err) {
      console.log(`refused: ${err.message}`);
      res.writeHead(400).end();
    }
  });
}).listen(port, "127.0.0.1", () => console.log(`listening on http://127.0.0.1:${port}/hooks`));
