// The two message shapes of the evaluation conversations: a user turn and an assistant turn, as
// the decision input takes them (`{ role, text }`).
export const u = (text) => ({ role: 'user', text });
export const a = (text) => ({ role: 'assistant', text });
