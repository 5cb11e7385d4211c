import { jsonSchema, tool } from 'ai';

/** An AI SDK tool that records each city it is asked about and answers `answer`. */
export const weatherTool = (cities: string[], answer = 'sunny') =>
  tool({
    description: 'The weather in a city',
    inputSchema: jsonSchema<{ city: string }>({
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
    }),
    execute: async ({ city }) => {
      cities.push(city);
      return answer;
    },
  });
