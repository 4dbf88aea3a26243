# Stop-word lists of the sw extractor, embedded in the library so that the
# binary needs no data files at run time.  Every data/stopwords/XX.txt is a
# language XX with a parameter t_XX: adding a file adds a language with no
# C change.  Included from the top-level CMakeLists.txt after cetune_obj.
file(GLOB CETUNE_STOPWORD_LISTS CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/data/stopwords/*.txt)
set(CETUNE_STOPWORDS_H ${PROJECT_BINARY_DIR}/generated/cetune_stopwords.h)
add_custom_command(
  OUTPUT ${CETUNE_STOPWORDS_H}
  COMMAND ${CMAKE_COMMAND} -DDIR=${PROJECT_SOURCE_DIR}/data/stopwords -DOUT=${CETUNE_STOPWORDS_H}
          -P ${PROJECT_SOURCE_DIR}/cmake/gen_stopwords.cmake
  DEPENDS ${CETUNE_STOPWORD_LISTS} ${PROJECT_SOURCE_DIR}/cmake/gen_stopwords.cmake
  COMMENT "Embedding stop-word lists from data/stopwords"
  VERBATIM)
target_sources(cetune_obj PRIVATE ${CETUNE_STOPWORDS_H})
target_include_directories(cetune_obj PRIVATE ${PROJECT_BINARY_DIR}/generated)
