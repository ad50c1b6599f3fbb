import { ConfigError, loadConfig } from "./config.ts";
import { startServer } from "./server.ts";

let config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(`docent: ${error.message}`);
    process.exit(1);
  }
  throw error;
}

const server = await startServer(config);
const stop = async () => {
  await server.close();
  process.exit(0);
};
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
