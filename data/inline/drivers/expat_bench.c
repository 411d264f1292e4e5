// sysgym's documented input for Expat: a generated XML document of nested records with
// attributes, entities and text, parsed in chunks with element and character handlers; prints
// what it counted.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expat.h"

struct counts {
  long elements, attributes, chars, depth, max_depth;
};

static void XMLCALL start(void *data, const XML_Char *name, const XML_Char **attrs) {
  struct counts *c = data;
  (void)name;
  ++c->elements;
  for (int i = 0; attrs[i]; i += 2) ++c->attributes;
  if (++c->depth > c->max_depth) c->max_depth = c->depth;
}

static void XMLCALL end(void *data, const XML_Char *name) {
  (void)name;
  --((struct counts *)data)->depth;
}

static void XMLCALL text(void *data, const XML_Char *s, int len) {
  (void)s;
  ((struct counts *)data)->chars += len;
}

int main(int argc, char **argv) {
  const int records = argc > 1 ? atoi(argv[1]) : 3000;
  size_t cap = (size_t)records * 256 + 64, len = 0;
  char *doc = malloc(cap);
  len += (size_t)sprintf(doc + len, "<?xml version=\"1.0\"?>\n<catalog>\n");
  for (int i = 0; i < records; ++i)
    len += (size_t)sprintf(doc + len,
                           "<record id=\"%d\" kind=\"k%d\"><name>item &amp; %d</name>"
                           "<price currency=\"EUR\">%d.%02d</price><tags><t>a</t><t>b%d</t>"
                           "</tags><!-- note --></record>\n",
                           i, i % 7, i * 31 % 1000, i % 500, i % 100, i % 9);
  len += (size_t)sprintf(doc + len, "</catalog>\n");
  struct counts c = {0, 0, 0, 0, 0};
  XML_Parser p = XML_ParserCreate(NULL);
  XML_SetHashSalt(p, 1);  // a fixed salt: the same hash collisions, the same instructions, every run
  XML_SetUserData(p, &c);
  XML_SetElementHandler(p, start, end);
  XML_SetCharacterDataHandler(p, text);
  for (size_t at = 0; at < len; at += 4096) {
    const size_t n = len - at < 4096 ? len - at : 4096;
    if (XML_Parse(p, doc + at, (int)n, at + n == len) == XML_STATUS_ERROR) {
      fprintf(stderr, "line %lu: %s\n", XML_GetCurrentLineNumber(p),
              XML_ErrorString(XML_GetErrorCode(p)));
      return 1;
    }
  }
  XML_ParserFree(p);
  free(doc);
  printf("%ld %ld %ld %ld\n", c.elements, c.attributes, c.chars, c.max_depth);
  return 0;
}
