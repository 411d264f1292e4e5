// sysgym's documented input for Argon2 (the reference implementation): argon2id and argon2i
// hashes of a password with 2 passes over 4 MiB; prints the encoded hashes.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "argon2.h"

int main(int argc, char **argv) {
  const unsigned kib = argc > 1 ? (unsigned)atoi(argv[1]) : 4096;
  const char *password = "correct horse battery staple";
  const unsigned char salt[16] = "sysgym-salt-0001";
  char encoded[128];
  for (int type = 0; type < 2; ++type) {
    const argon2_type t = type == 0 ? Argon2_id : Argon2_i;
    const int rc = argon2_hash(2, kib, 1, password, strlen(password), salt, sizeof salt, NULL, 32,
                               encoded, sizeof encoded, t, ARGON2_VERSION_NUMBER);
    if (rc != ARGON2_OK) {
      fprintf(stderr, "argon2: %s\n", argon2_error_message(rc));
      return 1;
    }
    printf("%s\n", encoded);
  }
  return 0;
}
