/** The password policy, as help text (the server checks it and names what is wrong). */
export const PASSWORD_RULES =
  'At least 12 characters (at most 256), not containing the username, not one character repeated.';
