import { Client as McpClient, type ClientOptions as McpClientOptions, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createTRPCClient, httpBatchLink, httpSubscriptionLink, splitLink } from "@trpc/client";
import { EventSource } from "eventsource";
import { createClient } from "graphql-sse";
import type { AppRouter } from "../../src/trpc/client.ts";

/** Real clients of the three interfaces, as a front end or a TypeScript service would build them. */
export function trpcClient(baseUrl: string, key: string) {
  const authorization = `Bearer ${key}`;
  return createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (op) => op.type === "subscription",
        true: httpSubscriptionLink({
          url: `${baseUrl}/trpc`,
          EventSource,
          // Node has no EventSource and browsers' cannot send headers: the `eventsource` package takes a fetch.
          eventSourceOptions: { fetch: (input, init) => fetch(input, { ...init, headers: { ...init?.headers, authorization } }) },
        }),
        false: httpBatchLink({ url: `${baseUrl}/trpc`, headers: { authorization } }),
      }),
    ],
  });
}

export function graphqlSseClient(baseUrl: string, key: string, singleConnection: boolean) {
  return createClient({
    url: `${baseUrl}${singleConnection ? "/graphql/stream" : "/graphql"}`,
    singleConnection,
    headers: { authorization: `Bearer ${key}` },
    retryAttempts: 0,
  });
}

export async function graphqlRequest(baseUrl: string, key: string | null, query: string, variables: object = {}) {
  const response = await fetch(`${baseUrl}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(key && { authorization: `Bearer ${key}` }) },
    body: JSON.stringify({ query, variables }),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as { data?: any; errors?: Array<{ message: string; extensions?: Record<string, unknown> }> },
  };
}

export const COMPLETION_FIELDS = `id object created model systemFingerprint urlReferences
  choices { index finishReason logprobs message { role content refusal annotations { url title startIndex endIndex } } }
  usage { promptTokens completionTokens totalTokens completionTokensDetails { reasoningTokens } }`;

export const CHUNK_FIELDS = `id object model systemFingerprint serviceTier urlReferences
  choices { index finishReason delta { content refusal role } }
  usage { promptTokens completionTokens totalTokens completionTokensDetails { reasoningTokens } }`;

/** The official MCP client over Streamable HTTP, as Claude Code or Codex connect: the key in a header on every request. */
export async function mcpClient(baseUrl: string, key: string | null, options?: McpClientOptions): Promise<McpClient> {
  const client = new McpClient({ name: "docent-test", version: "1" }, options);
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), { requestInit: { headers: key ? { authorization: `Bearer ${key}` } : {} } }),
  );
  return client;
}
