// Scorers registered on the Mastra instance (issue 20): over HTTP a scorer is named by its id.
// - prebuilt code scorers from @mastra/evals (no LLM): completeness, keyword coverage, textual
//   difference, content similarity, tone;
// - `answer-length`, a code scorer of our own (createScorer);
// - `judge-answers-question`, an LLM judge whose judge is a scripted model.
import { createScorer } from '@mastra/core/evals';
import {
  createCompletenessScorer,
  createContentSimilarityScorer,
  createKeywordCoverageScorer,
  createTextualDifferenceScorer,
  createToneScorer,
} from '@mastra/evals/scorers/prebuilt';
import { getAssistantMessageFromRunOutput, getUserMessageFromRunInput } from '@mastra/evals/scorers/utils';
import { z } from 'zod';
import { chunk, model, text } from './models.mjs';

/** 1 for an answer of `target` words or more, else the share of them. */
export const answerLength = createScorer({
  id: 'answer-length',
  name: 'Answer length',
  description: 'Share of 20 words the answer reaches (1 at 20 words or more)',
  type: 'agent',
})
  .preprocess(({ run }) => ({ words: (getAssistantMessageFromRunOutput(run.output) ?? '').split(/\s+/).filter(Boolean).length }))
  .generateScore(({ results }) => Math.min(1, results.preprocessStepResult.words / 20))
  .generateReason(({ results, score }) => `${results.preprocessStepResult.words} words; score ${score}`);

const words = s =>
  new Set(
    (s ?? '')
      .toLowerCase()
      .split(/\W+/)
      .filter(w => w.length > 3),
  );

/** The judge: answers the structured verdict it is asked for. "yes" when the answer shares a word
 * of four letters or more with the question, else "no"; the reason names the shared words. */
function* judgeScript(ctx) {
  const question = ctx.userText.match(/Question:\s*([\s\S]*?)\nAnswer:/)?.[1] ?? '';
  const answer = ctx.userText.match(/Answer:\s*([\s\S]*)$/)?.[1] ?? '';
  const answerWords = words(answer);
  const shared = [...words(question)].filter(w => answerWords.has(w));
  const verdict = shared.length ? 'yes' : 'no';
  const reason = shared.length ? `The answer takes up ${shared.join(', ')}.` : 'The answer shares no word with the question.';
  yield* text('judge-json', chunk(JSON.stringify({ verdict, reason }), 16));
}

export const judgeAnswersQuestion = createScorer({
  id: 'judge-answers-question',
  name: 'Judge: answers the question',
  description: 'An LLM judge (a scripted model): does the answer take up the question?',
  type: 'agent',
  judge: { model: model('mock-judge', judgeScript), instructions: 'You judge whether an answer takes up its question.' },
})
  .analyze({
    description: 'Ask the judge for a verdict',
    outputSchema: z.object({ verdict: z.enum(['yes', 'no']), reason: z.string() }),
    createPrompt: ({ run }) =>
      `Does the answer take up the question? Reply with a verdict and a reason.\nQuestion: ${getUserMessageFromRunInput(run.input) ?? ''}\nAnswer: ${getAssistantMessageFromRunOutput(run.output) ?? ''}`,
  })
  .generateScore(({ results }) => (results.analyzeStepResult.verdict === 'yes' ? 1 : 0))
  .generateReason(({ results }) => results.analyzeStepResult.reason);

export const completeness = createCompletenessScorer();

/** Every scorer of the server, keyed by its id (the name HTTP clients use). */
export const scorers = Object.fromEntries(
  [
    completeness,
    createKeywordCoverageScorer(),
    createTextualDifferenceScorer(),
    createContentSimilarityScorer(),
    createToneScorer(),
    answerLength,
    judgeAnswersQuestion,
  ].map(s => [s.id, s]),
);
