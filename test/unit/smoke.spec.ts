import 'reflect-metadata';
import { describe, it, expect } from '@jest/globals';
import { Injectable, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';

@Injectable()
class A {
  v() {
    return 1;
  }
}
@Injectable()
class B {
  constructor(readonly a: A) {}
}
@Module({ providers: [A, B] })
class M {}

describe('toolchain', () => {
  it('injects by metadata', async () => {
    const ref = await Test.createTestingModule({ imports: [M] }).compile();
    expect(ref.get(B).a.v()).toBe(1);
  });
});
