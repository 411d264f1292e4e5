# cmake -DFILES=a/b.json,c/d.json -DDESTINATION=DIR -P copy_tree.cmake, run in the folder the
# relative FILES name ("," between them: a ";" list would split into arguments on the way here):
# each file copied to DIR under the same relative path.
string(REPLACE "," ";" files "${FILES}")
foreach(file ${files})
  get_filename_component(folder ${file} DIRECTORY)
  file(MAKE_DIRECTORY ${DESTINATION}/${folder})
  file(COPY_FILE ${file} ${DESTINATION}/${file} ONLY_IF_DIFFERENT)
endforeach()
