// Blind evaluation sets for the embedded decision model (issue 15). Written by hand, independently
// of the model, its corpus and the project's dev sets; see README.md in this folder.
import { clinic7 } from './clinic7.mjs';
import { conversations } from './conversations.mjs';
import { simpleComplex } from './simple-complex.mjs';
import { support8 } from './support8.mjs';
import { topics6 } from './topics6.mjs';
import { workplace7 } from './workplace7.mjs';

export const blindSets = [topics6, simpleComplex, support8, conversations, workplace7, clinic7];
